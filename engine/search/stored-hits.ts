/**
 * Hits written as their stored JSON text. A document is stored as the JSON text of its object
 * (documents/prepare.ts `encodeDocument`), and a hit that shows the whole document unformatted is that same text:
 * decoding it to an object and encoding it again only for the response cost more than ranking on long documents
 * (man pages: UTF-8 decoding, `JSON.parse` and `JSON.stringify` together about 11 µs per KB of hits, 3 ms for a page
 * of 20 long pages). So a search answered as bytes (the HTTP route's, `searchSerialized`) keeps such hits as their
 * stored text and appends the hit's own fields (`_geoDistance`, `_rankingScore`, ...) to it.
 *
 * The text is the object's `JSON.stringify` already (integer-like keys first, strings escaped as it escapes them),
 * so the bytes are those the object would have been written as.
 */
import type { JsonObject } from '../json/value.js'
import type { SearchQuery } from './request.js'
import type { Settings } from '../settings/index.js'

/** A hit whose document is its stored JSON text; `extras`: the hit's own fields, in order, after the document's. */
export class StoredHit {
  constructor(readonly stored: Uint8Array, readonly extras: JsonObject) {}
}

/**
 * Whether a query's hits show whole documents unformatted: every displayed field retrieved, nothing highlighted,
 * cropped or positioned, and no vectors (they are stored apart and merged in).
 */
export function showsStoredDocuments(query: SearchQuery, settings: Settings): boolean {
  return settings.displayedAttributes.includes('*')
    && (query.attributesToRetrieve === null || query.attributesToRetrieve.includes('*'))
    && (query.attributesToHighlight === null || query.attributesToHighlight.length === 0)
    && (query.attributesToCrop === null || query.attributesToCrop.length === 0)
    && !query.showMatchesPosition && !query.retrieveVectors
}

/**
 * Names a hit's object handles apart from the document's fields: a document holding one (anywhere, even inside a
 * string: the check is on bytes) is formatted as an object, which drops or overwrites them as Meilisearch does.
 */
const RESERVED = ['_vectors', '_geoDistance', '_rankingScore', '_formatted', '_matchesPosition', '_federation'].map((name) => Buffer.from(name))
const QUOTE_UNDERSCORE = Buffer.from('"_')
const CLOSE = 0x7d

/** Whether stored text can be written as the hit's document as it is. */
export function storedAsIs(stored: Uint8Array): boolean {
  const bytes = Buffer.from(stored.buffer, stored.byteOffset, stored.byteLength)
  if (bytes.length < 2 || bytes[bytes.length - 1] !== CLOSE) return false
  for (let at = bytes.indexOf(QUOTE_UNDERSCORE); at >= 0; at = bytes.indexOf(QUOTE_UNDERSCORE, at + 2)) {
    for (const name of RESERVED) {
      if (at + 1 + name.length <= bytes.length && bytes.compare(name, 0, name.length, at + 1, at + 1 + name.length) === 0) return false
    }
  }
  return true
}

/** A search response as bytes: its `hits` first (stored hits spliced in), then its other fields in order. */
export function serializeResponse(response: JsonObject): Uint8Array {
  const hits = response.hits
  if (!Array.isArray(hits) || !hits.some((h) => h instanceof StoredHit)) return Buffer.from(JSON.stringify(response))
  const { hits: _hits, ...rest } = response
  const parts: Uint8Array[] = [Buffer.from('{"hits":[')]
  hits.forEach((hit, i) => {
    if (i > 0) parts.push(Buffer.from(','))
    if (!(hit instanceof StoredHit)) { parts.push(Buffer.from(JSON.stringify(hit))); return }
    const extras = JSON.stringify(hit.extras)
    if (extras === '{}') { parts.push(hit.stored); return }
    // The document without its closing brace, then the extras without their opening one.
    parts.push(hit.stored.subarray(0, hit.stored.length - 1))
    parts.push(Buffer.from((hit.stored.length > 2 ? ',' : '') + extras.slice(1)))
  })
  const others = JSON.stringify(rest)
  parts.push(Buffer.from(others === '{}' ? ']}' : `],${others.slice(1)}`))
  return Buffer.concat(parts)
}

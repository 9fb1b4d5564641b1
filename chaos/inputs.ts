/**
 * The fuzzer's inputs, structure-aware: requests for every route with bodies built from the field names each route
 * knows (then mutated: wrong types, huge numbers, deep nesting, long strings, invalid UTF-8, truncation), filter
 * expressions from the filter grammar, very long and very many query words, header and encoding variations, and raw
 * malformed HTTP (bad request lines, conflicting framing, huge headers, pipelined garbage).
 *
 * An input is a pure function of (seed, index): any failure replays from the two numbers.
 */
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib'
import { seededRandom } from '../test/helpers/random.js'

type Random = ReturnType<typeof seededRandom>

/** A request sent with fetch, or raw bytes written to a socket. */
export type FuzzInput =
  | { kind: 'http'; method: string; path: string; headers: Record<string, string>; body?: Uint8Array }
  | { kind: 'raw'; bytes: Uint8Array }

/** Indexes the fuzzer may write to; the sentinel is only read (or sent bodies that are never valid). */
export const WRITABLE = ['fz0', 'fz1', 'fz2']
export const SENTINEL = 'sentinel'

const pick = <T>(r: Random, list: readonly T[]): T => list[r.int(list.length)]!

const FIELDS = ['id', 'n', 'tag', 'title', 'nested.a', 'missing', '_geo', '*', '', 'a'.repeat(300)]
const SEARCH_KEYS = ['q', 'offset', 'limit', 'page', 'hitsPerPage', 'filter', 'facets', 'sort', 'attributesToRetrieve', 'attributesToHighlight',
  'attributesToCrop', 'cropLength', 'cropMarker', 'highlightPreTag', 'highlightPostTag', 'showMatchesPosition', 'showRankingScore',
  'showRankingScoreDetails', 'matchingStrategy', 'attributesToSearchOn', 'rankingScoreThreshold', 'locales', 'distinct', 'hybrid', 'vector',
  'retrieveVectors', 'facetName', 'facetQuery', 'exhaustiveFacetCount']
const SETTINGS_KEYS = ['searchableAttributes', 'displayedAttributes', 'filterableAttributes', 'sortableAttributes', 'rankingRules', 'stopWords',
  'synonyms', 'distinctAttribute', 'typoTolerance', 'faceting', 'pagination', 'proximityPrecision', 'separatorTokens', 'nonSeparatorTokens',
  'dictionary', 'searchCutoffMs', 'localizedAttributes', 'facetSearch', 'prefixSearch', 'embedders']
const FILTER_OPS = ['=', '!=', '>', '>=', '<', '<=']
const WORDS = ['hello', 'world', 'indigo', 'a', 'é', '中文', '🙂', 'AND', 'OR', 'NOT', 'TO', '"', '\\', "'", '-']

/** A random JSON value, biased toward the edges. */
function value(r: Random, depth = 0): unknown {
  switch (r.int(depth > 3 ? 9 : 12)) {
    case 0: return null
    case 1: return r.int(2) === 0
    case 2: return pick(r, [0, -1, 1, 20, 1000, 2 ** 31, 2 ** 53 + 1, -(2 ** 63), 1e308, -1e308, 0.5, 1e-300])
    case 3: return pick(r, WORDS)
    case 4: return pick(r, FIELDS)
    case 5: return filter(r)
    case 6: return longText(r)
    case 7: return pick(r, ['', ' ', 'null', '*', 'asc', 'desc', 'n:asc', 'title:desc', 'last', 'all', 'frequency', 'words', 'typo'])
    case 8: return String.fromCharCode(r.int(0xd800)) + '\uD800' // a lone surrogate
    case 9: return Array.from({ length: r.int(5) }, () => value(r, depth + 1))
    case 10: return Object.fromEntries(Array.from({ length: r.int(4) }, () => [pick(r, [...SEARCH_KEYS, ...SETTINGS_KEYS, ...FIELDS]), value(r, depth + 1)]))
    default: return deep(r)
  }
}

function longText(r: Random): string {
  switch (r.int(4)) {
    case 0: return 'a'.repeat(1 + r.int(100_000))
    case 1: return Array.from({ length: 1 + r.int(5000) }, () => pick(r, WORDS)).join(' ')
    case 2: return '"'.repeat(r.int(10_000))
    default: return Array.from({ length: r.int(2000) }, () => String.fromCodePoint(r.int(0x2ffff))).join('')
  }
}

function deep(r: Random): unknown {
  let v: unknown = 1
  // Deeper nesting goes as text (bytesOf): JSON.stringify itself overflows the stack on it.
  const n = 1 + r.int(r.int(2) === 0 ? 50 : 1000)
  for (let i = 0; i < n; i++) v = r.int(2) === 0 ? [v] : { a: v }
  return v
}

/** A filter expression from the grammar, sometimes broken. */
export function filter(r: Random, depth = 0): string | unknown[] {
  if (depth === 0 && r.int(6) === 0) return Array.from({ length: 1 + r.int(4) }, () => (r.int(3) === 0 ? [filter(r, 1), filter(r, 1)] : filter(r, 1)))
  const field = pick(r, ['n', 'tag', 'title', 'missing', '`n`', '"tag"', 'nested.a', '_geo'])
  let expr: string
  switch (r.int(depth > 2 ? 6 : 9)) {
    case 0: expr = `${field} ${pick(r, FILTER_OPS)} ${pick(r, ['1', '-1', '1e400', 't1', '"a b"', "'x'", 'NaN', ''])}`; break
    case 1: expr = `${field} ${r.int(100)} TO ${pick(r, ['5', '-5', 'z', ''])}`; break
    case 2: expr = `${field} ${pick(r, ['IN', 'NOT IN'])} [${Array.from({ length: r.int(5) }, () => pick(r, ['1', 't2', '"x"', ''])).join(', ')}]`; break
    case 3: expr = `${field} ${pick(r, ['EXISTS', 'NOT EXISTS', 'IS NULL', 'IS NOT NULL', 'IS EMPTY', 'IS NOT EMPTY', 'CONTAINS x', 'STARTS WITH h'])}`; break
    case 4: expr = pick(r, ['_geoRadius(45.4, 2.3, 1000)', '_geoRadius(1, 2)', '_geoBoundingBox([1, 2], [3, 4])', '_geoPoint(1, 2)', '_geoPolygon([1,2],[3,4],[5,6])']); break
    case 5: expr = pick(r, ['', '(', ')', 'AND', 'n =', '= 1', 'n = 1 AND', 'NOT', '"unterminated']); break
    case 6: expr = `(${filter(r, depth + 1)})`; break
    case 7: expr = `NOT ${filter(r, depth + 1)}`; break
    default: expr = `${filter(r, depth + 1)} ${pick(r, ['AND', 'OR', 'and', 'or'])} ${filter(r, depth + 1)}`
  }
  return typeof expr === 'string' ? expr : JSON.stringify(expr)
}

function searchBody(r: Random): Record<string, unknown> {
  const body: Record<string, unknown> = {}
  for (let i = r.int(5); i > 0; i--) {
    const key = pick(r, SEARCH_KEYS)
    body[key] = key === 'filter' ? filter(r) : key === 'q' && r.int(2) === 0 ? longText(r) : value(r)
  }
  return body
}

function settingsBody(r: Random): Record<string, unknown> {
  const body: Record<string, unknown> = {}
  for (let i = 1 + r.int(3); i > 0; i--) body[pick(r, SETTINGS_KEYS)] = r.int(3) === 0 ? pick(r, [['n'], ['tag', 'n'], ['*'], []]) : value(r)
  return body
}

function documentsBody(r: Random): unknown {
  if (r.int(4) === 0) return value(r)
  return Array.from({ length: r.int(20) }, () => (r.int(5) === 0 ? value(r) : { id: pick(r, [r.int(50), `d${r.int(50)}`, 'bad id!', '', -1, 1.5, null]), n: value(r), tag: pick(r, WORDS), title: value(r) }))
}

interface RouteShape { method: string; path: string; body?: (r: Random) => unknown }

/** `{i}`: an index uid; `{n}`: a number; `{s}`: a settings sub-route. */
const ROUTES: RouteShape[] = [
  { method: 'GET', path: '/health' }, { method: 'GET', path: '/version' }, { method: 'GET', path: '/stats' },
  { method: 'GET', path: '/indexes' }, { method: 'POST', path: '/indexes', body: (r) => ({ uid: pick(r, [...WRITABLE, 'bad uid', '', 'a'.repeat(500)]), primaryKey: value(r) }) },
  { method: 'GET', path: '/indexes/{i}' }, { method: 'PATCH', path: '/indexes/{i}', body: (r) => ({ primaryKey: value(r), uid: value(r) }) },
  { method: 'DELETE', path: '/indexes/{i}' }, { method: 'GET', path: '/indexes/{i}/stats' },
  { method: 'POST', path: '/indexes/{i}/search', body: searchBody }, { method: 'GET', path: '/indexes/{i}/search' },
  { method: 'POST', path: '/indexes/{i}/facet-search', body: searchBody },
  { method: 'POST', path: '/multi-search', body: (r) => ({ queries: Array.from({ length: r.int(4) }, () => ({ indexUid: pick(r, [...WRITABLE, SENTINEL]), ...searchBody(r) })), federation: r.int(3) === 0 ? value(r) : undefined }) },
  { method: 'GET', path: '/indexes/{i}/documents' }, { method: 'POST', path: '/indexes/{i}/documents', body: documentsBody },
  { method: 'PUT', path: '/indexes/{i}/documents', body: documentsBody }, { method: 'DELETE', path: '/indexes/{i}/documents' },
  { method: 'GET', path: '/indexes/{i}/documents/{n}' }, { method: 'DELETE', path: '/indexes/{i}/documents/{n}' },
  { method: 'POST', path: '/indexes/{i}/documents/delete-batch', body: (r) => (r.int(2) ? Array.from({ length: r.int(10) }, () => value(r)) : value(r)) },
  { method: 'POST', path: '/indexes/{i}/documents/delete', body: (r) => ({ filter: filter(r) }) },
  { method: 'POST', path: '/indexes/{i}/documents/fetch', body: (r) => ({ filter: filter(r), limit: value(r), fields: value(r), ids: value(r) }) },
  { method: 'POST', path: '/indexes/{i}/documents/edit', body: (r) => ({ function: pick(r, ['doc.n = 1', 'loop {}', '', 'doc']), filter: filter(r) }) },
  { method: 'GET', path: '/indexes/{i}/settings' }, { method: 'PATCH', path: '/indexes/{i}/settings', body: settingsBody },
  { method: 'DELETE', path: '/indexes/{i}/settings' }, { method: 'GET', path: '/indexes/{i}/settings/{s}' },
  { method: 'PUT', path: '/indexes/{i}/settings/{s}', body: value }, { method: 'POST', path: '/indexes/{i}/fields', body: value },
  { method: 'GET', path: '/tasks' }, { method: 'GET', path: '/tasks/{n}' }, { method: 'GET', path: '/batches' }, { method: 'GET', path: '/batches/{n}' },
  { method: 'POST', path: '/tasks/cancel' }, { method: 'DELETE', path: '/tasks' },
  { method: 'POST', path: '/swap-indexes', body: (r) => [{ indexes: [pick(r, WRITABLE), pick(r, [...WRITABLE, 'nope'])] }] },
  { method: 'GET', path: '/experimental-features' }, { method: 'GET', path: '/keys' }, { method: 'POST', path: '/keys', body: value },
]

const SUB_ROUTES = ['searchable-attributes', 'filterable-attributes', 'ranking-rules', 'synonyms', 'typo-tolerance', 'stop-words', 'pagination', 'faceting', 'embedders', 'nope']
const QUERY_KEYS = ['limit', 'offset', 'from', 'uids', 'statuses', 'types', 'indexUids', 'fields', 'filter', 'q', 'attributesToRetrieve', 'sort', 'reverse', 'primaryKey', 'csvDelimiter', 'customMetadata', 'beforeEnqueuedAt']

function queryString(r: Random): string {
  if (r.int(2) === 0) return ''
  const parts = Array.from({ length: 1 + r.int(4) }, () => {
    const v = r.int(5) === 0 ? String(filter(r)) : String(value(r))
    return `${pick(r, QUERY_KEYS)}=${r.int(4) === 0 ? v : encodeURIComponent(v.replace(/[\uD800-\uDFFF]/g, '\uFFFD'))}`
  })
  return `?${parts.join('&')}`
}

function fill(r: Random, template: string, write: boolean): string {
  return template
    .replace('{i}', () => (write ? pick(r, [...WRITABLE, WRITABLE[0]!, 'missing', 'bad%20uid', encodeURIComponent('é'), '%FF']) : pick(r, [...WRITABLE, SENTINEL, 'missing'])))
    .replace('{n}', () => pick(r, ['0', '1', '-1', '99999999999999999999', 'abc', '%00', String(r.int(100))]))
    .replace('{s}', () => pick(r, SUB_ROUTES))
}

const CONTENT_TYPES = ['application/json', 'application/json', 'application/x-ndjson', 'text/csv', 'text/plain', 'application/json; charset=latin1', 'multipart/form-data', '', 'application/json, text/csv']

/** Serialize with occasional damage: truncation, a stray byte, invalid UTF-8. */
function bytesOf(r: Random, body: unknown, contentType: string): Uint8Array {
  let text = body === undefined ? '' : contentType === 'text/csv' && Array.isArray(body) ? csvOf(body) : contentType === 'application/x-ndjson' && Array.isArray(body) ? body.map((b) => JSON.stringify(b)).join('\n') : JSON.stringify(body) ?? ''
  let bytes = Buffer.from(text)
  switch (r.int(8)) {
    case 0: bytes = bytes.subarray(0, r.int(bytes.length + 1)); break
    case 1: { const at = r.int(bytes.length + 1); bytes = Buffer.concat([bytes.subarray(0, at), Buffer.from([pick(r, [0xff, 0xc3, 0x00, 0x80, 0xed])]), bytes.subarray(at)]); break }
    case 2: text = '\uFEFF' + text; bytes = Buffer.from(text); break
    case 3: if (r.int(4) === 0) { const n = 1 + r.int(200_000); bytes = Buffer.from(`${'['.repeat(n)}${']'.repeat(n)}`) } break
  }
  return bytes
}

function csvOf(rows: unknown[]): string {
  return ['id,n:number,tag', ...rows.map((row) => (row && typeof row === 'object' ? Object.values(row).map((v) => String(v)).join(',') : String(row)))].join('\n')
}

const RAW: ((r: Random) => string)[] = [
  () => 'GARBAGE\r\n\r\n',
  () => 'GET /health HTTP/1.0\r\n\r\n',
  (r) => `GET /${'a'.repeat(r.int(100_000))} HTTP/1.1\r\nHost: a\r\n\r\n`,
  (r) => `GET /health HTTP/1.1\r\nHost: a\r\nX-Big: ${'b'.repeat(r.int(200_000))}\r\n\r\n`,
  (r) => `GET /health HTTP/1.1\r\n${Array.from({ length: r.int(2000) }, (_, i) => `H${i}: v`).join('\r\n')}\r\n\r\n`,
  (r) => `POST /indexes/fz0/search HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\nTransfer-Encoding: ${pick(r, ['xchunked', 'Chunked', 'gzip, chunked', 'chunked, chunked', ' chunked'])}\r\n\r\n2\r\n{}\r\n0\r\n\r\n`,
  (r) => `POST /indexes/fz0/search HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\nContent-Length: ${pick(r, ['2', '2, 3', '-1', '99999999999999999999', 'x'])}\r\nContent-Length: ${pick(r, ['2', '3'])}\r\n\r\n{}`,
  (r) => `POST /indexes/fz0/search HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n${pick(r, ['2 2', 'zz', '-2', 'ffffffffffffffff', '2;x=y'])}\r\n{}\r\n0\r\n\r\n`,
  (r) => `POST /indexes/fz0/search HTTP/1.1\r\nHost: a\r\nContent-Length: 100\r\n\r\n${'{'.repeat(r.int(50))}`,
  (r) => `GET /health HTTP/1.1\r\nHost: a\r\n\r\n${Array.from({ length: 1 + r.int(20) }, () => pick(r, ['GET /version HTTP/1.1\r\nHost: a\r\n\r\n', 'HEAD /health HTTP/1.1\r\n\r\n', '\x00\x01\x02\r\n', 'GET / HTTP/1.1\r\n'])).join('')}`,
  (r) => `${pick(r, ['get', 'G ET', 'GET  /health', 'GET /health HTTP/1.1 extra', 'GET http://x/health HTTP/1.1', 'CONNECT a:1 HTTP/1.1', 'GET /health\tHTTP/1.1'])}\r\nHost: a\r\n\r\n`,
  (r) => Buffer.from(Array.from({ length: r.int(5000) }, () => r.int(256))).toString('latin1'),
]

/** The input number `index` of a run seeded with `seed`. */
export function fuzzInput(seed: number, index: number): FuzzInput {
  const r = seededRandom((seed ^ Math.imul(index + 1, 0x9e3779b1)) >>> 0)
  r.int(2) // decorrelate neighbouring seeds
  if (r.int(10) === 0) return { kind: 'raw', bytes: Buffer.from(pick(r, RAW)(r), 'latin1') }
  const route = pick(r, ROUTES)
  const write = route.method !== 'GET'
  const path = fill(r, route.path, write) + queryString(r)
  const contentType = pick(r, CONTENT_TYPES)
  const headers: Record<string, string> = {}
  if (contentType) headers['content-type'] = contentType
  let body = route.body ? bytesOf(r, route.body(r), contentType) : r.int(10) === 0 ? bytesOf(r, value(r), contentType) : undefined
  if (body && r.int(10) === 0) {
    const encoding = pick(r, ['gzip', 'deflate', 'br', 'identity', 'zstd', 'gzip, br'])
    headers['content-encoding'] = encoding
    // Half the time the body is not really compressed.
    if (r.int(2) === 0) body = compress(encoding, body)
  }
  if (r.int(20) === 0) headers.authorization = pick(r, ['Bearer ', 'Bearer x', 'Basic abc', 'x'.repeat(10_000)])
  return { kind: 'http', method: route.method, path, headers, body }
}

function compress(encoding: string, body: Uint8Array): Uint8Array {
  if (encoding === 'gzip') return gzipSync(body)
  if (encoding === 'deflate') return deflateSync(body)
  if (encoding === 'br') return brotliCompressSync(body)
  return body
}

/** One line describing an input (for the failure report and the corpus). */
export function describe(input: FuzzInput): string {
  if (input.kind === 'raw') return `raw ${JSON.stringify(Buffer.from(input.bytes).toString('latin1').slice(0, 200))}`
  const body = input.body ? ` body ${input.body.byteLength} B ${JSON.stringify(Buffer.from(input.body).toString('latin1').slice(0, 160))}` : ''
  return `${input.method} ${input.path.slice(0, 200)} ${JSON.stringify(input.headers).slice(0, 200)}${body}`
}

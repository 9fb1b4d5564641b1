/** Reading documents: one by id, or a page with `ids`, `filter`, `sort`, `fields` and `retrieveVectors`. */
import { TesseraError } from '../errors/index.js'
import { checkFilterable, parseFilter, type FilterExpression } from '../filter/index.js'
import type { Bitmap } from '../inverted/index.js'
import type { Document } from '../payload/documents.js'
import type { Features } from '../features/index.js'
import type { Settings } from '../settings/index.js'
import { selectRange, type DocumentStore } from './store.js'
import { externalId } from './ids.js'
import { project, withVectors } from './fields.js'

export interface DocumentQuery {
  offset: number
  limit: number
  fields: string[] | null
  filter: unknown
  retrieveVectors: boolean
  ids: (string | number)[] | null
  /** `attr:asc|desc` and `_geoPoint(lat, lng):asc|desc` criteria, or null for insertion order. */
  sort?: string[] | null
}

/** Puts the selected documents in the order a `sort` asks for (given by the caller, which knows the facets). */
export type DocumentOrder = (docids: number[]) => number[]

export interface DocumentPage {
  results: Document[]
  offset: number
  limit: number
  total: number
}

/**
 * A document as the documents routes show it. `stored`: the vector store's `_vectors` of the document (laid over the
 * document's own entries when `retrieveVectors`).
 */
export function shape(doc: Document, fields: string[] | null, retrieveVectors: boolean, stored?: Record<string, unknown>): Document {
  let withOrWithout = withVectors(doc, retrieveVectors)
  if (retrieveVectors && stored) withOrWithout = { ...withOrWithout, _vectors: { ...((withOrWithout._vectors ?? {}) as Record<string, unknown>), ...stored } }
  return project(withOrWithout, fields === null ? null : retrieveVectors ? [...fields, '_vectors'] : fields)
}

export function canonicalId(raw: string | number): string | null {
  try {
    // A string id is used as given ("01" is not 1); an integer prints in decimal, as it is stored.
    return externalId(raw)
  } catch {
    return null
  }
}

/** The live documents matching a filter (the facet index's evaluation, the same one search uses). */
export type FilterIds = (expr: FilterExpression) => Promise<Bitmap>

/** The vector store's `_vectors` of a document (see `shape`). */
export type StoredVectorsOf = (docid: number) => Record<string, unknown>

export async function readPage(store: DocumentStore, index: { id: number; primaryKey: string | null }, settings: () => Settings, features: Features, filterIds: FilterIds, q: DocumentQuery, order: DocumentOrder | null = null, vectorsOf?: StoredVectorsOf): Promise<DocumentPage> {
  const indexId = index.id
  const expr = parseFilter(q.filter, 'invalid_document_filter')
  if (expr !== null) checkFilterable(expr, settings().filterableAttributes, 'invalid_document_filter', { containsFilter: features.isEnabled('containsFilter') })
  const out = (docids: number[], total: number): DocumentPage => ({
    results: store.getMany(indexId, docids).map((d, k) => shape(d, q.fields, q.retrieveVectors, q.retrieveVectors ? vectorsOf?.(docids[k]!) : undefined)), offset: q.offset, limit: q.limit, total,
  })
  if (q.ids === null && expr === null && order === null) return out(store.page(indexId, q.offset, q.limit), store.count(indexId))
  const matched = expr === null ? null : await filterIds(expr)
  if (q.ids !== null) {
    // Look the ids up, then keep insertion order.
    const docids = [...new Set(q.ids.flatMap((id) => {
      const c = canonicalId(id)
      const d = c === null ? undefined : store.docidOf(indexId, c)
      return d === undefined || (matched !== null && !matched.has(d)) ? [] : [d]
    }))].sort((a, b) => a - b)
    const ordered = order === null ? docids : order(docids)
    return out(ordered.slice(q.offset, q.offset + q.limit), docids.length)
  }
  if (order !== null) {
    const all = matched === null ? store.page(indexId, 0, store.count(indexId)) : matched.toArray()
    return out(order(all).slice(q.offset, q.offset + q.limit), all.length)
  }
  return out(selectRange(matched!, q.offset, q.limit), matched!.size)
}

export function documentNotFound(id: string): TesseraError {
  return new TesseraError('document_not_found', `Document \`${id}\` not found.`)
}

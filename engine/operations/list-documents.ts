import type { Engine } from '../engine.js'
import { readPage, type DocumentOrder, type DocumentPage, type DocumentQuery } from '../documents/read.js'
import { checkSort, parseSort, sortDocids, sortKey } from '../search/sort.js'
import { publishedIndex } from './published-index.js'
import { storedVectors } from '../vectors/output.js'

/**
 * `GET /indexes/{uid}/documents` and `POST .../documents/fetch`: filters evaluated as search evaluates them; `sort`
 * on sortable attributes (no `sort` ranking rule needed), errors with `invalid_document_sort`.
 */
export async function listDocuments(engine: Engine, uid: string, query: DocumentQuery): Promise<DocumentPage> {
  const index = publishedIndex(engine, uid)
  let order: DocumentOrder | null = null
  if (query.sort != null && query.sort.length > 0) {
    const criteria = parseSort(query.sort, 'invalid_document_sort')
    checkSort(criteria, index.settings, 'invalid_document_sort', false)
    const facets = await index.facets()
    const keys = criteria.map((c) => sortKey(c, facets))
    order = (docids) => sortDocids(docids, keys)
  }
  const vectors = query.retrieveVectors ? await engine.vectors.get(index.meta.id) : null
  const vectorsOf = vectors ? (docid: number) => storedVectors(vectors, index.settings.embedders, docid) : undefined
  return readPage(engine.documents, index.meta, () => index.settings, engine.features, (expr) => index.filter(expr), query, order, vectorsOf)
}

import type { Engine } from '../engine.js'
import { indexView, type IndexView } from '../indexes/catalog.js'

/** `GET /indexes`: indexes in uid order. */
export function listIndexes(engine: Engine, offset: number, limit: number): { results: IndexView[]; offset: number; limit: number; total: number } {
  const all = engine.catalog.list()
  return { results: all.slice(offset, offset + limit).map(indexView), offset, limit, total: all.length }
}

import type { Engine } from '../engine.js'
import { indexView, type IndexView } from '../indexes/catalog.js'

/** `GET /indexes`: indexes in uid order; only those in `indexScope` when one is given (an index-restricted key). */
export function listIndexes(engine: Engine, offset: number, limit: number, indexScope?: (uid: string) => boolean): { results: IndexView[]; offset: number; limit: number; total: number } {
  const all = indexScope === undefined ? engine.catalog.list() : engine.catalog.list().filter((meta) => indexScope(meta.uid))
  return { results: all.slice(offset, offset + limit).map(indexView), offset, limit, total: all.length }
}

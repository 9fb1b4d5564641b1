import type { Engine } from '../engine.js'
import { formatMicros } from '../tasks/time.js'
import { statsOf, type IndexStats } from './index-stats.js'

export interface GlobalStats {
  databaseSize: number
  usedDatabaseSize: number
  lastUpdate: string | null
  indexes: Record<string, IndexStats>
}

/**
 * `GET /stats`. The sizes come from the storage's cached measure, so the request never walks the disk. With an
 * `indexScope` (an index-restricted key) only those indexes are listed and count for `lastUpdate`; the sizes stay
 * those of the whole database, as Meilisearch reports them.
 */
export async function globalStats(engine: Engine, indexScope?: (uid: string) => boolean): Promise<GlobalStats> {
  const metas = indexScope === undefined ? engine.catalog.list() : engine.catalog.list().filter((meta) => indexScope(meta.uid))
  const lastUpdate = metas.reduce<number | null>((m, i) => (m === null || i.updatedAt > m ? i.updatedAt : m), null)
  const indexes: Record<string, IndexStats> = {}
  for (const meta of metas) indexes[meta.uid] = await statsOf(engine, meta)
  const databaseSize = await engine.store.sizeOnDisk()
  const live = engine.store.liveDataSize()
  return { databaseSize, usedDatabaseSize: Math.min(databaseSize, live || databaseSize), lastUpdate: lastUpdate === null ? null : formatMicros(lastUpdate), indexes }
}

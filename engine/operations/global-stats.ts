import type { Engine } from '../engine.js'
import { formatMicros } from '../tasks/time.js'
import { statsOf, type IndexStats } from './index-stats.js'

export interface GlobalStats {
  databaseSize: number
  usedDatabaseSize: number
  lastUpdate: string | null
  indexes: Record<string, IndexStats>
}

/** `GET /stats`. The sizes come from the storage's cached measure, so the request never walks the disk. */
export async function globalStats(engine: Engine): Promise<GlobalStats> {
  const metas = engine.catalog.list()
  const lastUpdate = metas.reduce<number | null>((m, i) => (m === null || i.updatedAt > m ? i.updatedAt : m), null)
  const indexes: Record<string, IndexStats> = {}
  for (const meta of metas) indexes[meta.uid] = statsOf(engine, meta)
  const databaseSize = await engine.store.sizeOnDisk()
  const live = engine.store.liveDataSize()
  return { databaseSize, usedDatabaseSize: Math.min(databaseSize, live || databaseSize), lastUpdate: lastUpdate === null ? null : formatMicros(lastUpdate), indexes }
}

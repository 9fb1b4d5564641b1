/**
 * The engine opened in this process on a stopped server's data directory, with the request parser, for timing
 * `Engine.search` without HTTP (the search and facets scenarios). Loaded on demand, so that the rest of the bench
 * does not depend on the engine's modules.
 */
import { performance } from 'node:perf_hooks'

export async function openInProcess(dbPath: string): Promise<{
  engine: import('../../engine/index.js').Engine
  parseSearchBody: typeof import('../../engine/search/query.js').parseSearchBody
  openSeconds: number
  close(): Promise<void>
}> {
  const { Engine } = await import('../../engine/index.js')
  const { parseSearchBody } = await import('../../engine/search/query.js')
  const { createWorkerPool } = await import('../../workers/pool.js')
  const pool = createWorkerPool(2)
  const t0 = performance.now()
  try {
    const engine = await Engine.open({ path: dbPath, pool })
    return { engine, parseSearchBody, openSeconds: (performance.now() - t0) / 1000, close: async () => { await engine.close(); await pool.close() } }
  } catch (err) {
    await pool.close()
    throw err
  }
}

/**
 * The engine opened in this process on a stopped server's data directory, with the request parser, for timing
 * the `search` operation without HTTP (the search and facets scenarios). Loaded on demand, so that the rest of the bench
 * does not depend on the engine's modules.
 */
import { performance } from 'node:perf_hooks'

export async function openInProcess(dbPath: string): Promise<{
  /** The `search` operation on the opened engine (the response object, every hit's document decoded). */
  search: (uid: string, query: import('../../engine/search/request.js').SearchQuery) => Promise<Record<string, unknown>>
  /**
   * The operation the HTTP search route runs (`searchSerialized`): the response as JSON bytes, hits that show whole
   * documents written from their stored text without decoding them.
   */
  searchBytes: (uid: string, query: import('../../engine/search/request.js').SearchQuery) => Promise<Uint8Array>
  parseSearchBody: typeof import('../../src/api/search.js').parseSearchBody
  openSeconds: number
  close(): Promise<void>
}> {
  const { Engine, search, searchSerialized } = await import('../../engine/index.js')
  const { parseSearchBody } = await import('../../src/api/search.js')
  const { createWorkerPool } = await import('../../workers/pool.js')
  const pool = createWorkerPool(2)
  const t0 = performance.now()
  try {
    const engine = await Engine.open({ path: dbPath, pool })
    return {
      search: (uid, query) => search(engine, uid, query),
      searchBytes: (uid, query) => searchSerialized(engine, uid, query),
      parseSearchBody,
      openSeconds: (performance.now() - t0) / 1000,
      close: async () => { await engine.close(); await pool.close() },
    }
  } catch (err) {
    await pool.close()
    throw err
  }
}

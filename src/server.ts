/** Start and stop the whole service: engine, worker pool, HTTP adapter. Used by the CLI, tests and the bench. */
import { resolve } from 'node:path'
import { Engine } from '../engine/index.js'
import { createWorkerPool } from '../workers/pool.js'
import type { Config } from './config.js'
import { createLogger, type Logger } from './log.js'
import { createHandler } from './app.js'
import { loadUws, uwsAdapter } from './http/uws.js'
import { nodeAdapter } from './http/node.js'
import type { HttpAdapter } from './http/types.js'
import { AuthService, loadAuthConfig } from './auth/index.js'

export interface RunningServer {
  port: number
  host: string
  adapter: 'uws' | 'node'
  engine: Engine
  /** Stop accepting, let the scheduler finish or abandon its batch, close the pool and the database. */
  close(): Promise<void>
}

export function chooseAdapter(wanted: 'uws' | 'node', log: Logger): HttpAdapter {
  if (wanted === 'node') return nodeAdapter
  const loaded = loadUws()
  if ('uws' in loaded) return uwsAdapter(loaded.uws)
  log.warn(`uWebSockets.js cannot be loaded here (${loaded.error}); falling back to node:http`)
  return nodeAdapter
}

export async function startServer(config: Config, log: Logger = createLogger(config.logLevel)): Promise<RunningServer> {
  if (config.masterKey === null && config.env === 'development') {
    log.warn('no master key is set: every route is open (use --master-key in production)')
  } else if (config.masterKey !== null) {
    // API keys and their enforcement come with the keys work: until then a key protects nothing, and says so.
    log.warn('the master key is stored but not enforced yet: every route is open (API keys are not implemented)')
  }
  const authConfig = await loadAuthConfig({ configPath: config.authConfigPath, env: config.env, log })
  const pool = createWorkerPool(config.maxIndexingThreads)
  const engine = await Engine.open({ path: resolve(config.dbPath), pool, log: (m, level) => (level === 'ERROR' ? log.error(m) : log.info(m)), batchDelayMs: config.testBatchDelayMs, batchLimits: { maxTasks: config.maxBatchedTasks, maxBytes: config.batchedTasksTotalSize } })
  const auth = new AuthService({ config: authConfig, store: engine.store, log, bodyLimit: config.httpPayloadSizeLimit })
  const adapter = chooseAdapter(config.httpAdapter, log)
  const listening = await adapter.listen(config.httpAddr.host, config.httpAddr.port, createHandler(engine, config, log, auth))
  let closing: Promise<void> | null = null
  return {
    port: listening.port,
    host: config.httpAddr.host,
    adapter: adapter.name,
    engine,
    close() {
      closing ??= (async () => {
        await listening.close()
        auth.close()
        await engine.close()
        await pool.close()
      })()
      return closing
    },
  }
}

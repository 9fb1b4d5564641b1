/** Start and stop the whole service: engine, worker pool, HTTP adapter. Used by the CLI, tests and the bench. */
import { existsSync, readdirSync, unlinkSync } from 'node:fs'
import { basename, dirname, join, resolve } from 'node:path'
import { Engine } from '../engine/index.js'
import { createWorkerPool } from '../workers/pool.js'
import { createSearchThreads } from '../workers/search-pool.js'
import { MASTER_KEY_MIN_BYTES, generatedMasterKeyMessage, type Config } from './config.js'
import { KeyStore } from './keys/key-store.js'
import { createLogger, type Logger } from './log.js'
import { createHandler } from './app.js'
import { loadUws, uwsAdapter } from './http/uws.js'
import { nodeAdapter } from './http/node.js'
import type { HttpAdapter } from './http/types.js'
import { AuthService, loadAuthConfig } from './auth/service.js'
import { createSnapshot } from '../engine/index.js'
import { prepareDataDir } from './data-dir.js'
import { VERSION } from './version.js'

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
  if (config.masterKey === null) {
    log.warn(`No master key was found. The server will accept unidentified requests. A master key of at least ${MASTER_KEY_MIN_BYTES} bytes will be required when switching to a production environment.`)
  } else if (Buffer.byteLength(config.masterKey) < MASTER_KEY_MIN_BYTES) {
    log.warn(`Tessera started with a master key considered unsafe for use in a production environment. A master key of at least ${MASTER_KEY_MIN_BYTES} bytes will be required when switching to a production environment.\n${generatedMasterKeyMessage()}`)
  }
  const authConfig = await loadAuthConfig({ configPath: config.authConfigPath, env: config.env, masterKey: config.masterKey, log })
  const pool = createWorkerPool(config.maxIndexingThreads)
  try {
    await prepareDataDir(config, log, pool)
  } catch (err) {
    await pool.close()
    throw err
  }
  const searchThreads = config.searchThreads > 0 ? createSearchThreads({
    threads: config.searchThreads, queueSize: config.searchQueueSize,
    hooks: { gate: config.testSearchThreadGate, exitOn: config.testSearchThreadExit },
  }) : undefined
  const engine = await Engine.open({
    path: resolve(config.dbPath), pool, searchThreads, searchThreadReads: config.searchThreadReads, log: (m, level) => (level === 'ERROR' ? log.error(m) : log.info(m)), vectorSearch: config.vectorSearch,
    batchHeldWhile: config.testBatchGate === null ? undefined : heldWhileExists(config.testBatchGate),
    ...(config.testNetworkAnswerGate === null ? {} : { networkAnswerHeld: waitWhileExists(config.testNetworkAnswerGate) }),
    batchLimits: { maxTasks: config.maxBatchedTasks, maxBytes: config.batchedTasksTotalSize },
    dumpDir: resolve(config.dumpDir), snapshotDir: resolve(config.snapshotDir), dbVersion: VERSION.pkgVersion,
    embedders: config.embedders, storageLog: config.storageLog, ...(config.cluster ? { cluster: config.cluster } : {}),
  }).catch(async (err: unknown) => {
    // Cluster mode can fail to open (NATS unreachable, a database of another cluster): nothing is left running.
    await pool.close()
    await searchThreads?.close()
    throw err
  })
  // Scheduled snapshots are ordinary snapshot tasks, registered on a timer.
  const snapshots = config.scheduleSnapshot === null ? null : setInterval(() => {
    createSnapshot(engine).catch((err) => log.error(`scheduled snapshot: ${(err as Error).message}`))
  }, config.scheduleSnapshot * 1000)
  snapshots?.unref()
  const memoryLog = config.memoryLogMs > 0 ? setInterval(() => log.warn(memoryLine()), config.memoryLogMs) : null
  memoryLog?.unref()
  const keys = await KeyStore.open(engine.store, config.masterKey, engine.stateChanges, config.cluster?.stream ?? null)
  const collections = new AuthService({ config: authConfig, store: engine.store, log, bodyLimit: config.httpPayloadSizeLimit })
  const adapter = chooseAdapter(config.httpAdapter, log)
  const listening = await adapter.listen(config.httpAddr.host, config.httpAddr.port, createHandler(engine, config, log, { keys, collections }))
  let closing: Promise<void> | null = null
  return {
    port: listening.port,
    host: config.httpAddr.host,
    adapter: adapter.name,
    engine,
    close() {
      closing ??= (async () => {
        if (snapshots) clearInterval(snapshots)
        if (memoryLog) clearInterval(memoryLog)
        await listening.close()
        collections.close()
        await searchThreads?.close()
        await engine.close()
        await pool.close()
      })()
      return closing
    },
  }
}

/** The main thread's memory as `TESSERA_MEMORY_LOG_MS` logs it (MB): native = RSS less the V8 heap and external. */
function memoryLine(): string {
  const m = process.memoryUsage()
  const mb = (n: number) => Math.round(n / (1 << 20))
  return `memory rss=${mb(m.rss)} heapUsed=${mb(m.heapUsed)} heapTotal=${mb(m.heapTotal)} external=${mb(m.external)} arrayBuffers=${mb(m.arrayBuffers)} native=${mb(m.rss - m.heapTotal - m.external)}`
}

/** Test hook (`TESSERA_TEST_NETWORK_ANSWER_GATE`): wait while the file exists (polled every 10 ms). */
function waitWhileExists(path: string): () => Promise<void> {
  return async () => {
    while (existsSync(path)) await new Promise((resolve) => setTimeout(resolve, 10))
  }
}

/**
 * Test hook (`TESSERA_TEST_BATCH_GATE`): batches wait in `processing` while the gate file exists, except that a file
 * named `<gate>.pass-<anything>` beside it lets one waiting batch through: the batch takes it by deleting it, so
 * two batches never take the same pass, and a test can release exactly one batch and hold the next.
 */
function heldWhileExists(path: string): () => boolean {
  const dir = dirname(path)
  const passPrefix = `${basename(path)}.pass-`
  return () => {
    if (!existsSync(path)) return false
    for (const name of readdirSync(dir)) {
      if (!name.startsWith(passPrefix)) continue
      try {
        unlinkSync(join(dir, name))
        return false
      } catch {
        // Taken by another batch in the meantime (or removed by the test): look for another pass.
      }
    }
    return true
  }
}

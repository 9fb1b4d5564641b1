/**
 * Both thread pools close only once their threads have loaded their modules (engine/util/thread-loading.ts): a
 * thread terminated while loading roaring aborts the process. The stand-in thread takes 300 ms to load and logs when
 * it has; a pool closed right after its threads started must find every one logged.
 */
import t from 'tap'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { createWorkerPool } from '../../workers/pool.js'
import { createSearchThreads } from '../../workers/search-pool.js'
import { siblingModule } from '../../engine/util/module-path.js'
import type { ThreadJob } from '../../engine/search/threads.js'
import { tempDir } from '../helpers/server.js'

const filename = siblingModule(import.meta.url, './slow-loading-thread')
const log = join(tempDir(), 'loaded.log')
// Threads copy the environment when they start.
process.env.TESSERA_TEST_LOADED_LOG = log
const loadedLines = () => readFileSync(log, 'utf8').split('\n').filter(Boolean).length

t.beforeEach(() => writeFileSync(log, ''))

t.test('the Piscina pool closed right after it was created: its thread had loaded', async (t) => {
  const pool = createWorkerPool(1, { filename })
  await pool.close()
  t.equal(loadedLines(), 1)
})

t.test('the search threads closed right after they started: each had loaded', async (t) => {
  const threads = createSearchThreads({ threads: 2, queueSize: 10, filename })
  const job: ThreadJob = { indexId: 1, serial: 's', view: {} as never, work: { kind: 'search', query: { q: 'x' } as never } }
  const search = threads.run(job, () => null).then(() => 'answered', () => 'stopped')
  await threads.close()
  t.equal(await search, 'stopped', 'the queued search was refused')
  t.equal(loadedLines(), 2)
})

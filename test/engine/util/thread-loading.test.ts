/**
 * engine/util/thread-loading.ts: a thread terminated while it registers roaring's native addon aborts the whole
 * process; LoadedThreads.stop waits until the thread has loaded, so the same stops end cleanly. Each run is a
 * process of its own (roaring-loading.ts), stopping threads right as each starts loading the binary: without the
 * wait, each of 7 runs of 100 such stops aborted (2026-11-29, load 2-3).
 */
import t from 'tap'
import { fileURLToPath } from 'node:url'
import { nodeSync } from '../../helpers/server.js'
import { siblingModule } from '../../../engine/util/module-path.js'

const script = fileURLToPath(siblingModule(import.meta.url, './roaring-loading'))
const run = (mode: 'raw' | 'settled', count: number) => nodeSync([script, mode, String(count)], { env: { ...process.env, TESSERA_THREAD_PRELOADS: '0' } })

t.test('terminate() while a thread loads roaring aborts the process (why the engine waits)', async (t) => {
  const raw = run('raw', 200)
  t.not(raw.status, 0, 'the process did not end normally')
  t.match(raw.stderr, /FATAL ERROR: v8::ToLocalChecked Empty MaybeLocal/)
})

t.test('LoadedThreads.stop waits for the thread to load, and every stop ends cleanly', async (t) => {
  const settled = run('settled', 40)
  t.equal(settled.status, 0, settled.stderr.slice(-2000))
  t.equal(settled.stdout, 'stopped 40\n')
})

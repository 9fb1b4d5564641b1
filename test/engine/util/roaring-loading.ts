/**
 * Run by thread-loading.test.ts in a process of its own (a crash aborts it): start threads that load roaring's
 * binary and stop each as it begins, `raw` (worker.terminate() at once) or `settled` (LoadedThreads.stop).
 * Prints `stopped N` once all N were stopped.
 */
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { Worker } from 'node:worker_threads'
import { LoadedThreads } from '../../../engine/util/thread-loading.js'

/**
 * The thread: warms its module loader (reads roaring's package.json), says it is about to load roaring's binary (the
 * one roaring's own loader picks, found here), loads it, then posts what `announceLoaded` posts. A cold loader or an
 * ES module puts more JavaScript between the signal and the binary's registration, where the same stops land far
 * less often.
 */
const thread = `
const { parentPort, threadId, workerData: { flag, binary, roaringPackage } } = require('node:worker_threads')
require(roaringPackage)
Atomics.store(flag, 0, 1)
Atomics.notify(flag, 0)
require(binary)
parentPort.postMessage({ threadLoaded: threadId })
`

const [mode, count] = [process.argv[2], Number(process.argv[3])]
const require = createRequire(import.meta.url)
const roaringPackage = join(dirname(require.resolve('roaring')), 'package.json')
const preBinding = require.resolve('@mapbox/node-pre-gyp/lib/pre-binding', { paths: [dirname(roaringPackage)] })
const binary: string = require(preBinding).find(roaringPackage)
const loaded = new LoadedThreads()
for (let i = 0; i < count; i++) {
  const flag = new Int32Array(new SharedArrayBuffer(4))
  const worker = new Worker(thread, { eval: true, workerData: { flag, binary, roaringPackage } })
  worker.on('message', (m: unknown) => loaded.note(m))
  Atomics.wait(flag, 0, 0, 10_000)
  // Then 0 to 475 µs more, in steps: where the thread is in the binary's loading varies with the machine.
  const from = performance.now()
  while (performance.now() - from < (i % 20) * 0.025) { /* spin */ }
  if (mode === 'raw') await worker.terminate()
  else await loaded.stop(worker)
}
process.stdout.write(`stopped ${count}\n`)

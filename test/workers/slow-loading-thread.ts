/**
 * A thread that takes 300 ms to load (as the engine's threads can on a busy machine), for thread-stop.test.ts: it
 * then appends a line to the file `TESSERA_TEST_LOADED_LOG` names and says it is loaded, both as the Piscina pool's
 * threads do (`announceLoaded`) and as search threads do (`{ ready: true }`).
 */
import { appendFileSync } from 'node:fs'
import { parentPort } from 'node:worker_threads'
import { announceLoaded } from '../../engine/util/thread-loading.js'

Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 300)
appendFileSync(process.env.TESSERA_TEST_LOADED_LOG!, 'loaded\n')
announceLoaded()
parentPort!.postMessage({ ready: true })

/** Piscina's handler: the tests run no job. */
export default function run(): null {
  return null
}

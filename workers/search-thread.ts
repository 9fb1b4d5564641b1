/**
 * A search thread (workers/search-pool.ts starts them): runs the jobs posted to it one at a time
 * (engine/search/thread-run.ts). It reads the hits' documents itself through the database's handle when the job
 * allows it and the read can be trusted (engine/storage/shared-reads.ts); otherwise it asks the HTTP thread, which
 * is synchronous: the request goes out as a message, the thread waits on a shared flag, and takes the answer from
 * its own port without returning to its event loop (`receiveMessageOnPort`).
 */
import { existsSync, writeFileSync } from 'node:fs'
import { parentPort, receiveMessageOnPort, workerData, type MessagePort } from 'node:worker_threads'
import { runOnThread, type HeldSource, type ThreadMessage } from '../engine/search/thread-run.js'
import type { DocumentReader } from '../engine/search/threads.js'
import { SharedDocumentReader } from '../engine/storage/shared-reads.js'
import type { SearchThreadHooks } from './search-pool.js'
import { DroppedViews } from './thread-garbage.js'

const { flag, port, hooks } = workerData as { flag: Int32Array; port: MessagePort; hooks: SearchThreadHooks }
const held = new Map<number, HeldSource>()
const reader: { current: DocumentReader } = { current: () => null }
// Test hook: a shorter interval between collections, so a test sees several within a hundred publishes.
const dropped = new DroppedViews(Number(process.env.TESSERA_TEST_VIEW_COLLECTION_MS) || undefined)
/** The database opened through the handle of the latest generation a job named (a reopen makes a new one). */
let shared: SharedDocumentReader | null = null

parentPort!.on('message', async (message: ThreadMessage | { forget: number }) => {
  if ('forget' in message) {
    if (held.delete(message.forget)) dropped.dropped()
    return
  }
  if (hooks.gate) holdAtGate(hooks.gate)
  const { documents } = message
  if (documents && shared?.generation !== documents.generation) {
    // A database that does not open through the handle is read through the HTTP thread instead.
    shared = await SharedDocumentReader.open(documents).catch(() => null)
  }
  const exits = hooks.exitOn != null && message.work.kind === 'search' && message.work.query.q === hooks.exitOn
  reader.current = (docids) => {
    if (exits) process.exit(70)
    const own = documents && shared ? shared.read(message.indexId, documents.epoch, docids) : null
    if (own) return own
    Atomics.store(flag, 0, 0)
    parentPort!.postMessage({ id: message.id, read: docids })
    for (;;) {
      Atomics.wait(flag, 0, 0, 1000)
      const answer = receiveMessageOnPort(port)
      if (answer) return answer.message as ReturnType<DocumentReader>
    }
  }
  parentPort!.postMessage({ id: message.id, answer: runOnThread(held, message, reader) })
  // A message with a view replaced the index's previous one: its shared buffers go only when this thread collects.
  if (message.view) dropped.dropped()
})

// The engine's modules are loaded (imports come first): the pool may hand this thread searches.
parentPort!.postMessage({ ready: true })

/** Test hook (SearchThreadHooks.gate): wait while the gate file exists, saying so with `<gate>.held`. */
function holdAtGate(gate: string): void {
  if (!existsSync(gate)) return
  writeFileSync(`${gate}.held`, '')
  const pause = new Int32Array(new SharedArrayBuffer(4))
  while (existsSync(gate)) Atomics.wait(pause, 0, 0, 10)
}

/**
 * A search thread (workers/search-pool.ts starts them): runs the jobs posted to it one at a time
 * (engine/search/thread-run.ts). The hits' documents are asked of the HTTP thread in the middle of a search, which
 * is synchronous: the request goes out as a message, the thread waits on a shared flag, and takes the answer from
 * its own port without returning to its event loop (`receiveMessageOnPort`).
 */
import { parentPort, receiveMessageOnPort, workerData, type MessagePort } from 'node:worker_threads'
import { runOnThread, type HeldSource, type ThreadMessage } from '../engine/search/thread-run.js'
import type { DocumentReader } from '../engine/search/threads.js'
import { collectSoon } from './thread-garbage.js'

const { flag, port } = workerData as { flag: Int32Array; port: MessagePort }
const held = new Map<number, HeldSource>()
const reader: { current: DocumentReader } = { current: () => null }

parentPort!.on('message', (message: ThreadMessage | { forget: number }) => {
  if ('forget' in message) {
    held.delete(message.forget)
    collectSoon()
    return
  }
  reader.current = (docids) => {
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
  if (message.view) collectSoon()
})

/** A worker thread that reads postings and forward records over views handed to it (shared-view.test.ts). */
import { parentPort } from 'node:worker_threads'
import { Postings, type PostingsView } from '../../../engine/inverted/postings.js'
import { ForwardRecords, type ForwardView } from '../../../engine/inverted/forward.js'

interface Ask { postings: PostingsView; forward: ForwardView; words: number; docs: number }

parentPort!.on('message', (ask: Ask) => {
  const postings = Postings.fromView(ask.postings)
  const forward = ForwardRecords.fromView(ask.forward)
  const shared = [ask.postings.large.bytes, ask.postings.small.data, ask.forward.data, ask.forward.start].every((a) => a.buffer instanceof SharedArrayBuffer)
  const words = Array.from({ length: ask.words }, (_, w) => postings.get(w)?.toArray() ?? null)
  const records = Array.from({ length: ask.docs }, (_, d) => (forward.get(d) ? [...forward.get(d)!] : null))
  parentPort!.postMessage({ shared, words, records })
})

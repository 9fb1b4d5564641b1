/**
 * Piscina worker entry: decodes the msgpackr-encoded input, runs the named engine job, and hands the encoded
 * result back as a transferred buffer (no copy on the way back).
 */
import { Packr } from 'msgpackr'
import { Piscina } from 'piscina'
import { jobs } from '../engine/pool/jobs.js'
import { announceLoaded } from '../engine/util/thread-loading.js'
import { lowerThreadPriority } from '../engine/util/thread-priority.js'
import { QuietCollection } from '../engine/util/garbage.js'

const packr = new Packr({ moreTypes: true, useRecords: false })

// A batch's chunks leave a thread's heap 30-60 MB after GCIDE's batch, kept until the thread's next batch fills it
// (engine/util/garbage.ts): collected once the thread has had no job for a moment.
const quiet = new QuietCollection({ growthBytes: 8 << 20, quietMs: 500 })

export default async function run({ job, input }: { job: keyof typeof jobs; input: Uint8Array }): Promise<unknown> {
  const fn = jobs[job] as (input: unknown) => unknown
  if (!fn) throw new Error(`unknown job ${job}`)
  quiet.workStarted()
  let result: unknown
  try {
    result = await fn(packr.unpack(input))
  } finally {
    quiet.workDone()
  }
  const encoded = packr.pack(result)
  const owned = new Uint8Array(encoded.byteLength)
  owned.set(encoded)
  return Piscina.move(owned)
}

// Indexing, embedding and graph builds are background work: searches and the HTTP thread get the cores first
// (engine/util/thread-priority.ts).
lowerThreadPriority()

// The engine's modules are loaded (imports come first): the pool may terminate this thread from now on.
announceLoaded()

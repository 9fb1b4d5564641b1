/**
 * Piscina worker entry: decodes the msgpackr-encoded input, runs the named engine job, and hands the encoded
 * result back as a transferred buffer (no copy on the way back).
 */
import { Packr } from 'msgpackr'
import { Piscina } from 'piscina'
import { jobs } from '../engine/pool/jobs.js'
import { announceLoaded } from '../engine/util/thread-loading.js'
import { lowerThreadPriority } from '../engine/util/thread-priority.js'

const packr = new Packr({ moreTypes: true, useRecords: false })

export default async function run({ job, input }: { job: keyof typeof jobs; input: Uint8Array }): Promise<unknown> {
  const fn = jobs[job] as (input: unknown) => unknown
  if (!fn) throw new Error(`unknown job ${job}`)
  const result = await fn(packr.unpack(input))
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

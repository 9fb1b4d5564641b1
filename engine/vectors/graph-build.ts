/**
 * Graph building off the indexing thread: a pool job extends a copy of a space's HNSW graph (read from a file the
 * indexing thread wrote off-thread) with a batch's new vectors, or builds a new one, and writes the result to a
 * file the indexing thread loads off-thread for the batch's next view. The published view keeps its own graph
 * untouched, so searches see the old graph or the new one, never a mix. Small batches stay on the indexing thread
 * (the files would cost more than the insertions): see `GRAPH_JOB_MIN`.
 */
import { AnnGraph } from './graph.js'

/** A batch adding at least this many vectors to a float space builds its graph in the pool (when there is one). */
export const GRAPH_JOB_MIN = 512

export interface GraphBuildInput {
  dims: number
  /** The graph to extend (a file `AnnGraph.save` wrote), or null for a new graph. */
  base: string | null
  /** Where the result goes. */
  out: string
  /** The new vectors' slots, and their values: `slots.length × dims` little-endian 32-bit floats. */
  slots: number[]
  vectors: Uint8Array
}

export function buildGraphFile(input: GraphBuildInput): { size: number } {
  const { dims, slots } = input
  const floats = new Float32Array(input.vectors.buffer, input.vectors.byteOffset, slots.length * dims)
  const graph = input.base === null ? AnnGraph.create(dims, slots.length) : AnnGraph.load(input.base, dims)
  graph.reserve(graph.size + slots.length)
  for (let i = 0; i < slots.length; i++) graph.add(slots[i]!, floats.subarray(i * dims, (i + 1) * dims))
  graph.save(input.out)
  return { size: graph.size }
}

/**
 * Graph building off the indexing thread: a pool job extends a space's HNSW graph with a batch's new vectors, or
 * builds a new one, and writes the result to a file the indexing thread loads off-thread for the batch's next view.
 * The published view keeps its own graph untouched, so searches see the old graph or the new one, never a mix. The
 * file is the new graph as it is: once the batch is published it becomes the saved graph (no second write on the
 * indexing thread). Small batches stay on the indexing thread (the files would cost more than the insertions): see
 * `GRAPH_JOB_MIN`.
 *
 * The graph to extend comes from a file that already holds it when there is one (`AnnGraph.source`: the file the
 * previous pool build wrote, or the last save), so a run of large batches does not write the whole graph out once
 * more per batch; and the worker that built the previous graph keeps it in memory (`kept`, one graph, for
 * KEEP_IDLE_MS), so when the next batch's job lands on it, it does not read the file either. Per large batch the
 * graph is then written once (by the worker) and read once (by the indexing thread, off-thread), against twice each.
 */
import { AnnGraph, type GraphSource } from './graph.js'

/** A batch adding at least this many vectors to a float space builds its graph in the pool (when there is one). */
export const GRAPH_JOB_MIN = 512

/** The directories graph builds work in (in the saved graphs' directory; left over only by a crash). */
export const GRAPH_SCRATCH_PREFIX = 'graph-build-'

/** How long a worker keeps the graph it built, waiting for the next batch's job (its memory is then freed). */
const KEEP_IDLE_MS = 60_000

export interface GraphBuildInput {
  dims: number
  /** The graph to extend (a file `AnnGraph.save` wrote, and the id of that version), or null for a new graph. */
  base: GraphSource | null
  /** Where the result goes, and the id of the version it is. */
  out: GraphSource
  /** The new vectors' slots, and their values: `slots.length × dims` little-endian 32-bit floats. */
  slots: number[]
  vectors: Uint8Array
  /** Slots of the base graph the batch drops (replaced or deleted vectors). */
  removed: number[]
}

export interface GraphBuildOutput {
  size: number
  /** Whether the base graph was read from its file (false: new, or kept in memory by this worker). */
  loaded: boolean
}

/** The graph this thread built last, as written to the file of version `id`. */
let kept: { id: string; graph: AnnGraph; timer: NodeJS.Timeout } | null = null

/** The kept graph when it is version `id` (taken: a failed build must not leave a half-extended graph kept). */
function takeKept(id: string): AnnGraph | null {
  const found = kept?.id === id ? kept.graph : null
  if (kept) clearTimeout(kept.timer)
  kept = null
  return found
}

function keep(id: string, graph: AnnGraph): void {
  if (kept) clearTimeout(kept.timer)
  const timer = setTimeout(() => { if (kept?.id === id) kept = null }, KEEP_IDLE_MS)
  timer.unref()
  kept = { id, graph, timer }
}

export function buildGraphFile(input: GraphBuildInput): GraphBuildOutput {
  const { dims, slots } = input
  const floats = new Float32Array(input.vectors.buffer, input.vectors.byteOffset, slots.length * dims)
  let graph = input.base === null ? AnnGraph.create(dims, slots.length) : takeKept(input.base.id)
  const loaded = graph === null
  graph ??= AnnGraph.load(input.base!.file, dims)
  for (const slot of input.removed) graph.remove(slot)
  graph.reserve(graph.size + slots.length)
  for (let i = 0; i < slots.length; i++) graph.add(slots[i]!, floats.subarray(i * dims, (i + 1) * dims))
  graph.save(input.out.file)
  keep(input.out.id, graph)
  return { size: graph.size, loaded }
}

/**
 * A batch's changes to one index's vectors: documents' new vectors (or none: deleted), embedders dropped, spaces
 * converted to binary quantization. `finalOps` turns them into the rows of the batch's atomic commit and the next
 * spaces to publish; new vectors enter the shared graph there under fresh slots, invisible to readers until
 * `publish` (readers only accept the slots of their view), or, for a large batch, a graph of the batch's own built
 * in the worker pool (graph-build.ts).
 */
import { randomUUID } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setImmediate } from 'node:timers/promises'
import { performance } from 'node:perf_hooks'
import { encode, type WriteOp } from '../storage/index.js'
import type { EmbedderSettings } from '../settings/index.js'
import { encodeEntry, rowKey, spaceKey, type SpaceRecord, type VectorEntry } from './codec.js'
import { quantize, quantize8 } from './distance.js'
import { AnnGraph, type GraphSource } from './graph.js'
import { GRAPH_JOB_MIN, GRAPH_SCRATCH_PREFIX, type GraphBuildInput } from './graph-build.js'
import { VectorSpace, type IndexVectors } from './space.js'
import type { DocumentVectors, EmbedderVectors } from './types.js'

/**
 * Graph insertions on the indexing thread (small batches, or no pool), which also answers requests: it yields to
 * the event loop once it has inserted for this long (an insertion at 384 dimensions takes about a millisecond).
 */
const TURN_MS = 8

/** Where a batch's graph may be built: a pool job (none: on this thread) and a directory for its files. */
export interface GraphOptions {
  /** Runs `buildGraphFile` in a worker (the pool's `buildGraph` job). */
  build?: (input: GraphBuildInput) => Promise<unknown>
  /** Default: the OS temporary directory. */
  scratch?: string
}

export interface DraftResult {
  spaces: IndexVectors
  changed: string[]
  dropped: string[]
}

export class VectorDraft {
  /** Per embedder: document → its new vectors, or null when it has none any more. */
  private readonly changes = new Map<string, Map<number, EmbedderVectors | null>>()
  private readonly dropped = new Set<string>()
  private readonly cleared = new Set<string>()
  /** Slots added to graphs by `finalOps`, to take out again if the batch is not committed. */
  private readonly added: [AnnGraph, number][] = []
  private readonly nextSlots = new Map<string, number>()
  private removedSlots: [AnnGraph, number][] = []
  /** Graphs built in the pool, by embedder: the file each was read from (in its own directory), for `publish`. */
  private graphFiles = new Map<string, { dir: string; file: string }>()
  private next: DraftResult | null = null

  constructor(readonly indexId: number, readonly base: IndexVectors, private readonly slotStart: (name: string, next: number) => number) {}

  /** Whether the batch changed anything. */
  get touched(): boolean {
    return this.changes.size > 0 || this.dropped.size > 0 || this.cleared.size > 0
  }

  /** The document's entry for `name` as the batch stands (undefined: none). */
  entry(name: string, docid: number): EmbedderVectors | undefined {
    const changed = this.changes.get(name)
    if (changed?.has(docid)) return changed.get(docid) ?? undefined
    if (this.dropped.has(name) || this.cleared.has(name)) return undefined
    const e = this.base.get(name)?.entries.get(docid)
    return e ? { embeddings: e.vectors, userProvided: e.userProvided, regenerate: e.regenerate } : undefined
  }

  /** Embedder names with vectors in the draft. */
  names(): string[] {
    return [...new Set([...this.base.keys(), ...this.changes.keys()])].filter((n) => !this.dropped.has(n) || this.changes.has(n))
  }

  /** Set a document's vectors for the embedders `vectors` names (the others keep theirs). */
  set(docid: number, vectors: DocumentVectors): void {
    for (const [name, v] of Object.entries(vectors)) this.changesOf(name).set(docid, v)
  }

  /** A deleted document: no vectors for any embedder. */
  remove(docid: number): void {
    for (const name of this.names()) if (this.entry(name, docid) !== undefined) this.changesOf(name).set(docid, null)
  }

  /** An embedder removed from the settings: every vector of it goes. */
  drop(name: string): void {
    this.dropped.add(name)
    this.changes.delete(name)
  }

  /** An embedder whose vectors must all go (its dimensions changed): the space starts over. */
  clear(name: string): void {
    this.cleared.add(name)
    this.changes.delete(name)
  }

  private changesOf(name: string): Map<number, EmbedderVectors | null> {
    let m = this.changes.get(name)
    if (!m) this.changes.set(name, (m = new Map()))
    return m
  }

  /** The writes of the batch's commit; computes the spaces `result` publishes. */
  async finalOps(embedders: Record<string, EmbedderSettings>, checkAborted: () => void, options: GraphOptions = {}): Promise<WriteOp[]> {
    const ops: WriteOp[] = []
    const spaces = new Map(this.base)
    const changed: string[] = []
    const dropped: string[] = []
    const names = new Set([...this.base.keys(), ...this.changes.keys(), ...this.dropped, ...this.cleared])
    for (const name of names) {
      const base = this.base.get(name)
      const settings = embedders[name]
      if (this.dropped.has(name) && !this.changes.has(name) || settings === undefined) {
        if (base) {
          for (const docid of base.entries.keys()) ops.push({ column: 'vectors', key: rowKey(this.indexId, name, docid) })
          ops.push({ column: 'vectors', key: spaceKey(this.indexId, name) })
          for (const slot of base.slotDoc.keys()) if (base.graph) this.removedSlots.push([base.graph, slot])
          spaces.delete(name)
          dropped.push(name)
        }
        continue
      }
      const fresh = this.cleared.has(name)
      const quantized = settings.binaryQuantized === true
      const converting = !fresh && base !== undefined && quantized && !base.quantized
      const changes = this.changes.get(name) ?? new Map<number, EmbedderVectors | null>()
      if (!fresh && !converting && changes.size === 0) continue
      const from = fresh ? undefined : base
      let dims = settings.dimensions ?? from?.dims ?? 0
      if (dims === 0) for (const v of changes.values()) if (v && v.embeddings.length > 0) { dims = v.embeddings[0]!.length; break }
      if (dims === 0) continue
      const entries = new Map(from?.entries ?? [])
      const slotDoc = new Map(from?.slotDoc ?? [])
      if (fresh && base) {
        for (const docid of base.entries.keys()) ops.push({ column: 'vectors', key: rowKey(this.indexId, name, docid) })
        if (base.graph) for (const slot of base.slotDoc.keys()) this.removedSlots.push([base.graph, slot])
      }
      // A space turning quantized keeps its slots and loses its graph (quantized spaces are scanned by Hamming distance).
      if (converting) {
        for (const [docid, e] of entries) {
          const q: VectorEntry = { ...e, packed: e.vectors.map(quantize), int8: e.vectors.map(quantize8), vectors: [] }
          entries.set(docid, q)
          if (!changes.has(docid)) ops.push({ column: 'vectors', key: rowKey(this.indexId, name, docid), value: encodeEntry(q, dims) })
        }
      }
      const shared = quantized ? null : (from?.graph ?? null)
      let nextSlot = this.slotStart(name, from?.record.nextSlot ?? base?.record.nextSlot ?? 0)
      // The graph's changes: slots that go, and the new vectors (inserted below, here or in the pool).
      const gone: number[] = []
      const adds: [number, Float32Array][] = []
      for (const [docid, v] of changes) {
        const old = entries.get(docid)
        if (old) for (const s of old.slots) { slotDoc.delete(s); gone.push(s) }
        if (v === null) {
          entries.delete(docid)
          ops.push({ column: 'vectors', key: rowKey(this.indexId, name, docid) })
          continue
        }
        const slots = v.embeddings.map(() => nextSlot++)
        const entry: VectorEntry = quantized
          ? { vectors: [], packed: v.embeddings.map(quantize), int8: v.embeddings.map(quantize8), userProvided: v.userProvided, regenerate: v.regenerate, slots }
          : { vectors: v.embeddings, packed: [], int8: [], userProvided: v.userProvided, regenerate: v.regenerate, slots }
        entries.set(docid, entry)
        for (const s of slots) slotDoc.set(s, docid)
        ops.push({ column: 'vectors', key: rowKey(this.indexId, name, docid), value: encodeEntry(entry, dims) })
        if (!quantized) slots.forEach((slot, k) => adds.push([slot, v.embeddings[k]!]))
      }
      const graph = quantized ? null : await this.extendGraph(name, shared, dims, gone, adds, slotDoc, options, checkAborted)
      this.nextSlots.set(name, nextSlot)
      const record: SpaceRecord = { dims, quantized, generation: (base?.record.generation ?? 0) + 1, nextSlot }
      ops.push({ column: 'vectors', key: spaceKey(this.indexId, name), value: encode(record) })
      spaces.set(name, new VectorSpace(name, record, entries, slotDoc, graph))
      changed.push(name)
    }
    this.next = { spaces, changed, dropped }
    return ops
  }

  /**
   * The graph of the batch's view: the shared graph (or a new one) with the new vectors inserted on this thread,
   * yielding to requests every TURN_MS, under fresh slots readers of the published view do not accept; or, for a
   * batch of at least GRAPH_JOB_MIN vectors with a pool, a graph of its own built in the pool from a copy of the
   * shared one (see graph-build.ts), whose slots the view no longer maps are dropped. The built graph's `source` is
   * its file, until `publish` moves it (or drops it, with no graphs directory).
   */
  private async extendGraph(name: string, shared: AnnGraph | null, dims: number, gone: number[], adds: [number, Float32Array][], slotDoc: ReadonlyMap<number, number>, options: GraphOptions, checkAborted: () => void): Promise<AnnGraph> {
    if (options.build && adds.length >= GRAPH_JOB_MIN) {
      const dir = mkdtempSync(join(options.scratch ?? tmpdir(), GRAPH_SCRATCH_PREFIX))
      try {
        // The shared graph's file when one holds it already (see graph-build.ts), else a copy written off-thread.
        let base: GraphSource | null = null
        if (shared && shared.size > 0) {
          base = shared.source
          if (!base) {
            base = { file: join(dir, 'base.hnsw'), id: randomUUID() }
            await shared.saveAsync(base.file)
          }
        }
        checkAborted()
        const vectors = new Float32Array(adds.length * dims)
        adds.forEach(([, v], i) => vectors.set(v, i * dims))
        const out: GraphSource = { file: join(dir, 'out.hnsw'), id: randomUUID() }
        const input: GraphBuildInput = { dims, base, out, slots: adds.map(([slot]) => slot), vectors: new Uint8Array(vectors.buffer), removed: gone }
        await options.build(input)
        checkAborted()
        const graph = await AnnGraph.loadAsync(out.file, dims)
        // Labels hnswlib lists though deleted, and slots deleted since the base file was written: out of the view.
        for (const slot of [...graph.slots()]) if (!slotDoc.has(slot)) graph.remove(slot)
        graph.source = out
        rmSync(join(dir, 'base.hnsw'), { force: true })
        this.graphFiles.set(name, { dir, file: out.file })
        return graph
      } catch (err) {
        rmSync(dir, { recursive: true, force: true })
        throw err
      }
    }
    const graph = shared ?? AnnGraph.create(dims)
    for (const s of gone) this.removedSlots.push([graph, s])
    let turn = performance.now()
    for (const [slot, v] of adds) {
      graph.add(slot, v)
      this.added.push([graph, slot])
      if (performance.now() - turn > TURN_MS) { checkAborted(); await setImmediate(); turn = performance.now() }
    }
    return graph
  }

  /** What to publish once the commit is durable (null when nothing changed); old slots leave the graphs. */
  result(): DraftResult | null {
    if (!this.next) return null
    for (const [graph, slot] of this.removedSlots) graph.remove(slot)
    this.removedSlots = []
    return this.next
  }

  /** The batch is not committed: its slots leave the graphs. Returns the slot counters it reached. */
  abandon(): Map<string, number> {
    for (const [graph, slot] of this.added) graph.remove(slot)
    this.added.length = 0
    this.discardFiles()
    return this.nextSlots
  }

  /** The files of graphs built in the pool, for the store to keep as saved graphs (each in a directory to remove). */
  takeGraphFiles(): Map<string, { dir: string; file: string }> {
    const files = this.graphFiles
    this.graphFiles = new Map()
    return files
  }

  /** Remove the files of graphs built in the pool (the batch is not published). */
  discardFiles(): void {
    for (const { dir } of this.takeGraphFiles().values()) rmSync(dir, { recursive: true, force: true })
  }
}

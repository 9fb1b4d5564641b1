/**
 * The approximate-nearest-neighbour graph of one embedder space: an `hnswlib-node` HNSW graph in cosine space whose
 * labels are the store's slots (each stored vector has its own slot, never reused while its row keeps it). The
 * graph is shared by the published view and the batch preparing the next one: a batch adds its new vectors under
 * fresh slots before its commit, and readers only accept the slots their view maps to documents, so they never see
 * a vector of a batch that is not published. Slots a published batch dropped are marked deleted. A large batch
 * instead gets a graph of its own, built in the worker pool from a copy of this one (graph-build.ts).
 */
import { createRequire } from 'node:module'

const require = createRequire(import.meta.url)
const hnswlib = require('hnswlib-node') as typeof import('hnswlib-node')

/** HNSW construction parameters (hnswlib's usual defaults; measured in `npm run bench`). */
const M = 16
const EF_CONSTRUCTION = 200
const INITIAL_CAPACITY = 1024

/** A file that holds a graph, and an id naming that version of it (a worker that wrote it may still hold it). */
export interface GraphSource {
  file: string
  id: string
}

export class AnnGraph {
  /**
   * A file that holds this graph as it stands, but for slots deleted since (whoever loads it drops the slots its
   * view does not map): a batch building its graph in the pool starts from it instead of writing the graph out
   * again. Any insertion clears it.
   */
  source: GraphSource | null = null
  private index: import('hnswlib-node').HierarchicalNSW
  private capacity: number
  /** Slots present in the graph (deleted ones excluded). */
  private readonly present = new Set<number>()

  private constructor(readonly dims: number, index: import('hnswlib-node').HierarchicalNSW, capacity: number) {
    this.index = index
    this.capacity = capacity
  }

  static create(dims: number, capacity = INITIAL_CAPACITY): AnnGraph {
    const index = new hnswlib.HierarchicalNSW('cosine', dims)
    index.initIndex({ maxElements: Math.max(capacity, 16), m: M, efConstruction: EF_CONSTRUCTION, randomSeed: 100, allowReplaceDeleted: true })
    return new AnnGraph(dims, index, Math.max(capacity, 16))
  }

  /**
   * A graph saved by `save`. Its labels are all taken as present, deleted ones included (hnswlib lists them too):
   * the caller drops the ones the database does not have.
   */
  static load(file: string, dims: number): AnnGraph {
    const index = new hnswlib.HierarchicalNSW('cosine', dims)
    index.readIndexSync(file, true)
    const graph = new AnnGraph(dims, index, index.getMaxElements())
    for (const slot of index.getIdsList()) graph.present.add(slot)
    return graph
  }

  /** `load` off the calling thread (hnswlib reads the file in its own thread). */
  static async loadAsync(file: string, dims: number): Promise<AnnGraph> {
    const index = new hnswlib.HierarchicalNSW('cosine', dims)
    await index.readIndex(file, true)
    const graph = new AnnGraph(dims, index, index.getMaxElements())
    for (const slot of index.getIdsList()) graph.present.add(slot)
    return graph
  }

  /** Room for `total` vectors without growing one at a time. */
  reserve(total: number): void {
    if (total <= this.capacity) return
    this.capacity = total
    this.index.resizeIndex(total)
  }

  get size(): number {
    return this.present.size
  }

  has(slot: number): boolean {
    return this.present.has(slot)
  }

  slots(): IterableIterator<number> {
    return this.present.values()
  }

  add(slot: number, vector: Float32Array): void {
    if (this.present.has(slot)) return
    if (this.index.getCurrentCount() >= this.capacity) {
      this.capacity *= 2
      this.index.resizeIndex(this.capacity)
    }
    this.index.addPoint(Array.from(vector), slot, true)
    this.present.add(slot)
    this.source = null
  }

  remove(slot: number): void {
    if (!this.present.delete(slot)) return
    try {
      this.index.markDelete(slot)
    } catch {
      // Already marked deleted (a saved graph keeps its deleted labels, which `load` lists as present).
    }
  }

  /**
   * The `k` nearest slots to `query` that `accept` takes (all when absent), nearest first, with their cosine
   * distances; `ef` is the search breadth (at least `k`).
   */
  search(query: Float32Array, k: number, ef: number, accept?: (slot: number) => boolean): { slots: number[]; distances: number[] } {
    const n = Math.min(k, this.present.size)
    if (n === 0) return { slots: [], distances: [] }
    this.index.setEf(Math.max(ef, n))
    const result = accept ? this.index.searchKnn(Array.from(query), n, accept) : this.index.searchKnn(Array.from(query), n)
    return { slots: result.neighbors, distances: result.distances }
  }

  save(file: string): void {
    this.index.writeIndexSync(file)
  }

  /** `save` off the calling thread; the graph must not change until it resolves (searches may run). */
  async saveAsync(file: string): Promise<void> {
    await this.index.writeIndex(file)
  }
}

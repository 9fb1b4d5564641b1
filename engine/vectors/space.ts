/**
 * One embedder's published vectors in one index: every document's entry, the slot → document map the graph's
 * labels resolve through, and the graph (null when the space is binary quantized: those are searched by Hamming
 * distance over the packed bits). Immutable once published; the next batch publishes a new one.
 */
import type { AnnGraph } from './graph.js'
import type { SpaceRecord, VectorEntry } from './codec.js'

export class VectorSpace {
  constructor(
    readonly name: string,
    readonly record: SpaceRecord,
    readonly entries: ReadonlyMap<number, VectorEntry>,
    readonly slotDoc: ReadonlyMap<number, number>,
    readonly graph: AnnGraph | null,
  ) {}

  get dims(): number {
    return this.record.dims
  }

  get quantized(): boolean {
    return this.record.quantized
  }

  /** Vectors stored (`numberOfEmbeddings`). */
  get embeddings(): number {
    return this.slotDoc.size
  }

  /** Documents with at least one vector. */
  embeddedDocuments(): number[] {
    const out: number[] = []
    for (const [docid, e] of this.entries) if (e.vectors.length + e.packed.length > 0) out.push(docid)
    return out
  }
}

/** The vector spaces of one index, by embedder name. */
export type IndexVectors = ReadonlyMap<string, VectorSpace>

export const NO_VECTORS: IndexVectors = new Map()

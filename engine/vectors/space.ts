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

  private packedIndex: PackedIndex | null = null

  /**
   * Every quantized vector's sign bits in one array (32-bit words, `words` per vector) with its document, built the
   * first time a quantized space is searched: a Hamming scan then reads memory in order.
   */
  packed(): PackedIndex {
    if (this.packedIndex) return this.packedIndex
    const words = Math.ceil(this.dims / 32)
    let count = 0
    for (const e of this.entries.values()) count += e.packed.length
    const bits = new Uint32Array(count * words)
    const docids = new Uint32Array(count)
    let i = 0
    for (const [docid, e] of this.entries) {
      for (const p of e.packed) {
        const view = new Uint8Array(bits.buffer, i * words * 4, words * 4)
        view.set(p)
        docids[i++] = docid
      }
    }
    return (this.packedIndex = { words, bits, docids })
  }

  /** Documents with at least one vector. */
  embeddedDocuments(): number[] {
    const out: number[] = []
    for (const [docid, e] of this.entries) if (e.vectors.length + e.packed.length > 0) out.push(docid)
    return out
  }
}

export interface PackedIndex {
  words: number
  bits: Uint32Array
  docids: Uint32Array
}

/** The vector spaces of one index, by embedder name. */
export type IndexVectors = ReadonlyMap<string, VectorSpace>

export const NO_VECTORS: IndexVectors = new Map()

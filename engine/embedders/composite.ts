/**
 * `composite`: one embedder for documents (`indexingEmbedder`) and another for queries (`searchEmbedder`), e.g. a
 * hosted API while indexing and a local copy of the same model at search time (Meilisearch's
 * `embedder/composite.rs`). Creating one checks that both agree: same dimensions, then the same three test texts
 * embedded by both must be within an angular distance of 0.01 of each other ((1 − cos) / 2, as Meilisearch's
 * vector store measures it). Only the search side caches query vectors.
 */
import type { Distribution, EmbedderSettings } from './config.js'
import type { DocumentTemplate } from './document-template.js'
import { EmbedError, EmbeddingError, generationFailed } from './errors.js'
import type { RequestStats } from './request-stats.js'
import type { EmbedOptions, Embedder, ResolvedRuntime } from './types.js'

export const MAX_COMPOSITE_DISTANCE = 0.01
const TEST_TEXTS = ['test', 'a brave dog', 'This is a sample text. It is meant to compare similarity.']

/** Builds a sub-embedder (the factory, passed in to keep this file free of the source table). */
export type SubEmbedderFactory = (name: string, settings: EmbedderSettings, runtime: ResolvedRuntime, signal?: AbortSignal) => Promise<Embedder>

/** (1 − cos) / 2, 0 when either vector is null (Meilisearch's cosine distance). */
export function angularDistance(a: Float32Array, b: Float32Array): number {
  let dot = 0
  let na = 0
  let nb = 0
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!
    na += a[i]! * a[i]!
    nb += b[i]! * b[i]!
  }
  const norms = Math.sqrt(na) * Math.sqrt(nb)
  if (norms <= 1.1920929e-7) return 0
  return (1 - Math.min(1, Math.max(-1, dot / norms))) / 2
}

const innerError = (err: unknown): EmbedError =>
  err instanceof EmbeddingError ? err.embedError : err instanceof EmbedError ? err : new EmbedError('runtime', String(err))

function hint(search: Embedder, index: Embedder): string {
  const s = search.kind === 'localHub'
  const i = index.kind === 'localHub'
  if (s && i) return '\n  - Make sure the `model`, `revision` and `pooling` of both embedders match.'
  if (s) return '\n  - Consider trying a different `pooling` method for the search embedder.'
  if (i) return '\n  - Consider trying a different `pooling` method for the indexing embedder.'
  return ''
}

async function checkAgreement(search: Embedder, index: Embedder, signal?: AbortSignal): Promise<void> {
  if (search.dimensions !== index.dimensions) {
    throw generationFailed(new EmbedError('user', `error while generating test embeddings.\n  - the dimensions of embeddings produced at search time and at indexing time don't match.\n  - Search time dimensions: ${search.dimensions}\n  - Indexing time dimensions: ${index.dimensions}\n  - Note: Dimensions of embeddings produced by both embedders are required to match.`))
  }
  const embedAll = async (embedder: Embedder, when: string) => {
    try {
      return await embedder.embedDocuments(TEST_TEXTS, { signal })
    } catch (err) {
      if (signal?.aborted) throw err
      throw generationFailed(new EmbedError('runtime', `error while generating test embeddings.\n  - could not generate test embedding with embedder at ${when} time.\n  - Embedding failed with ${innerError(err).reason}`))
    }
  }
  const searchVectors = await embedAll(search, 'search')
  const indexVectors = await embedAll(index, 'indexing')
  for (let i = 0; i < TEST_TEXTS.length; i++) {
    const distance = angularDistance(searchVectors[i]!, indexVectors[i]!)
    if (distance > MAX_COMPOSITE_DISTANCE) {
      throw generationFailed(new EmbedError('user', `error while generating test embeddings.\n  - the embeddings produced at search time and indexing time are not similar enough.\n  - angular distance ${distance.toFixed(2)}\n  - Tessera requires a maximum distance of ${MAX_COMPOSITE_DISTANCE}.\n  - Note: check that both embedders produce similar embeddings.${hint(search, index)}`))
    }
  }
}

export class CompositeEmbedder implements Embedder {
  readonly kind = 'composite' as const
  readonly distribution: Distribution | null

  private constructor(readonly name: string, private readonly search: Embedder, private readonly index: Embedder, distribution: Distribution | null) {
    this.distribution = distribution ?? search.distribution ?? index.distribution
  }

  static async create(name: string, settings: EmbedderSettings, runtime: ResolvedRuntime, build: SubEmbedderFactory, signal?: AbortSignal): Promise<CompositeEmbedder> {
    const created: Embedder[] = []
    try {
      const search = await build(name, settings.searchEmbedder!, runtime, signal)
      created.push(search)
      const index = await build(name, settings.indexingEmbedder!, { ...runtime, queryCacheEntries: 0 }, signal)
      created.push(index)
      await checkAgreement(search, index, signal)
      return new CompositeEmbedder(name, search, index, settings.distribution ?? null)
    } catch (err) {
      await Promise.all(created.map((e) => e.close()))
      throw err
    }
  }

  get dimensions(): number {
    return this.index.dimensions
  }

  get documentTemplate(): DocumentTemplate | null {
    return this.index.documentTemplate
  }

  get chunkHint(): number {
    return this.index.chunkHint
  }

  /** The indexing side's counts (what a batch of document tasks reports). */
  get requests(): RequestStats {
    return this.index.requests
  }

  embedDocuments(texts: readonly string[], options?: EmbedOptions): Promise<Float32Array[]> {
    return this.index.embedDocuments(texts, options)
  }

  embedQuery(text: string, options?: EmbedOptions): Promise<Float32Array> {
    return this.search.embedQuery(text, options)
  }

  async close(): Promise<void> {
    await Promise.all([this.search.close(), this.index.close()])
  }
}

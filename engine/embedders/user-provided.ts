/**
 * `userProvided`: vectors come with the documents (`_vectors`) and the queries (`vector`); nothing is generated.
 * It is an `Embedder` so callers need no special case for its dimensions and distribution, and asking it to embed
 * fails as in Meilisearch (`embedder/manual.rs`, the text cut to 250 characters).
 */
import type { Distribution, EmbedderSettings } from './config.js'
import { documentsFailed, generationFailed, manualEmbed } from './errors.js'
import { RequestStats } from './request-stats.js'
import type { Embedder } from './types.js'

const excerpt = (text: string) => Array.from(text).slice(0, 250).join('')

export class UserProvidedEmbedder implements Embedder {
  readonly kind = 'userProvided' as const
  readonly documentTemplate = null
  readonly chunkHint = 1
  readonly requests = new RequestStats()
  readonly dimensions: number
  readonly distribution: Distribution | null

  constructor(readonly name: string, settings: EmbedderSettings) {
    this.dimensions = settings.dimensions ?? 0
    this.distribution = settings.distribution ?? null
  }

  async embedDocuments(texts: readonly string[]): Promise<Float32Array[]> {
    if (texts.length === 0) return []
    throw documentsFailed(this.name, manualEmbed(excerpt(texts[0]!)))
  }

  async embedQuery(text: string): Promise<Float32Array> {
    throw generationFailed(manualEmbed(excerpt(text)))
  }

  async close(): Promise<void> {}
}

/**
 * `hostedAi`: an OpenAI-compatible embeddings API (Meilisearch's `openAi` source, `embedder/openai.rs`), as a
 * remote embedder with fixed templates:
 *   request  `{"model": <model>, "input": ["{{text}}", "{{..}}"], "dimensions"?: <n>}`
 *   response `{"data": [{"embedding": "{{embedding}}"}, "{{..}}"]}`
 * `dimensions` is sent only for the models that can shorten their vectors (`text-embedding-3-small` and
 * `-large`) and only when the settings give it; the vector length is known from the model, so no probe is made.
 * The key is the settings' `apiKey`, else the `HOSTED_AI_API_KEY` environment variable; no key sends no
 * `Authorization` header. `url` (default OpenAI's) lets a proxy or another compatible vendor stand in.
 *
 * Deviation: on a 400 Meilisearch re-embeds each text cut to the model's 8191 tiktoken tokens; Tessera has no
 * tiktoken tokenizer and reports the 400.
 */
import type { Distribution, EmbedderSettings } from './config.js'
import type { DocumentTemplate } from './document-template.js'
import { RemoteEmbedder } from './rest.js'
import { REPEAT_PLACEHOLDER, REQUEST_PLACEHOLDER, RESPONSE_PLACEHOLDER } from './rest-templates.js'
import type { RemoteTuning, ResolvedRuntime } from './types.js'

export const HOSTED_AI_URL = 'https://api.openai.com/v1/embeddings'
export const HOSTED_AI_DEFAULT_MODEL = 'text-embedding-3-small'

interface KnownModel {
  dimensions: number
  /** Whether `dimensions` may ask for shorter vectors. */
  shortens: boolean
  /** Meilisearch's score distribution of the model. */
  distribution: Distribution
}

const MODELS: Record<string, KnownModel> = {
  'text-embedding-ada-002': { dimensions: 1536, shortens: false, distribution: { mean: 0.9, sigma: 0.08 } },
  'text-embedding-3-small': { dimensions: 1536, shortens: true, distribution: { mean: 0.75, sigma: 0.1 } },
  'text-embedding-3-large': { dimensions: 3072, shortens: true, distribution: { mean: 0.7, sigma: 0.1 } },
}

/** The request template sent for `settings` (the model name, and `dimensions` where the model takes it). */
export function hostedAiRequest(settings: EmbedderSettings): Record<string, unknown> {
  const model = settings.model ?? HOSTED_AI_DEFAULT_MODEL
  const request: Record<string, unknown> = { model, input: [REQUEST_PLACEHOLDER, REPEAT_PLACEHOLDER] }
  if (MODELS[model]?.shortens && settings.dimensions !== undefined) request.dimensions = settings.dimensions
  return request
}

export function createHostedAiEmbedder(
  name: string, settings: EmbedderSettings & RemoteTuning, template: DocumentTemplate | null, runtime: ResolvedRuntime, signal?: AbortSignal,
): Promise<RemoteEmbedder> {
  const model = settings.model ?? HOSTED_AI_DEFAULT_MODEL
  const known = MODELS[model]
  // Unknown names (a vendor's own model behind `url`) are probed like a `rest` embedder.
  const dimensions = known ? (known.shortens ? settings.dimensions ?? known.dimensions : known.dimensions) : settings.dimensions ?? null
  const apiKey = settings.apiKey ?? runtime.env['HOSTED_AI_API_KEY'] ?? ''
  return RemoteEmbedder.create({
    name,
    kind: 'hostedAi',
    url: settings.url ?? HOSTED_AI_URL,
    request: hostedAiRequest(settings),
    response: { data: [{ embedding: RESPONSE_PLACEHOLDER }, REPEAT_PLACEHOLDER] },
    headers: {},
    apiKey: apiKey === '' ? null : apiKey,
    dimensions,
    distribution: settings.distribution ?? known?.distribution ?? null,
    documentTemplate: template,
    source: 'hostedAi',
    tuning: settings,
  }, runtime, signal)
}

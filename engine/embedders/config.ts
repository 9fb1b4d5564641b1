/**
 * An embedder's configuration as the index settings store it (the `embedders` setting): the glossary the embedder
 * sources build from, and the settings code validates and merges.
 */

/** The source kinds, by the spec's names. Meilisearch's names are accepted as aliases (see SOURCE_ALIASES). */
export type EmbedderKind = 'hostedAi' | 'localHub' | 'localServer' | 'rest' | 'userProvided' | 'composite'

export type Pooling = 'useModel' | 'forceMean' | 'forceCls'

export interface Distribution {
  mean: number
  sigma: number
}

/** One embedder as stored (defaults of its source filled in when applied). `source` keeps the user's spelling. */
export interface EmbedderSettings {
  source: string
  model?: string
  revision?: string
  pooling?: Pooling
  apiKey?: string
  dimensions?: number
  binaryQuantized?: boolean
  documentTemplate?: string
  documentTemplateMaxBytes?: number
  url?: string
  request?: unknown
  response?: unknown
  headers?: Record<string, string>
  searchEmbedder?: EmbedderSettings
  indexingEmbedder?: EmbedderSettings
  distribution?: Distribution
  /** Tessera's own tuning of remote sources (see `RemoteTuning` in types.ts); absent: Meilisearch's behaviour. */
  batchSize?: number
  maxConcurrentRequests?: number
  requestsPerMinute?: number
  tokensPerMinute?: number
}

/** Tessera's own embedder fields, accepted for `rest`, `hostedAi` and `localServer` (also as a composite's half). */
export const TUNING_FIELDS = ['batchSize', 'maxConcurrentRequests', 'requestsPerMinute', 'tokensPerMinute'] as const

/** Meilisearch's default document template: each searchable field that has a value, as `name: value` lines. */
export const DEFAULT_DOCUMENT_TEMPLATE = '{% for field in fields %}{% if field.is_searchable and field.value != nil %}{{ field.name }}: {{ field.value }}\n{% endif %}{% endfor %}'
export const DEFAULT_DOCUMENT_TEMPLATE_MAX_BYTES = 400

/** Meilisearch's spellings → kind. */
const MEILI_NAMES: Record<string, EmbedderKind> = { openAi: 'hostedAi', huggingFace: 'localHub', ollama: 'localServer', userProvided: 'userProvided', rest: 'rest', composite: 'composite' }
const SPEC_NAMES: Record<string, EmbedderKind> = { hostedAi: 'hostedAi', localHub: 'localHub', localServer: 'localServer', userProvided: 'userProvided', rest: 'rest', composite: 'composite' }

/** The kind of a `source` value, in either family of names. */
export function embedderKind(source: string): EmbedderKind {
  const kind = MEILI_NAMES[source] ?? SPEC_NAMES[source]
  if (!kind) throw new Error(`unknown embedder source ${source}`)
  return kind
}

/**
 * Embedder settings (their deserialization is the front end's: `src/api/embedders.ts`): the per-source field table with Meilisearch's messages
 * (`milli/src/vector/settings.rs` `field_status`, `milli/src/error.rs`), merging an update into a stored embedder,
 * the defaults of each source, secret masking and the reindexing an embedder change needs.
 *
 * Source names: the spec's (`hostedAi`, `localHub`, `localServer`, `rest`, `userProvided`, `composite`) and
 * Meilisearch's (`openAi`, `huggingFace`, `ollama`, and the shared ones) are both accepted. The spelling sent is
 * stored and shown back; messages that list sources use the family of the spelling sent, in Meilisearch's order.
 */
import { TesseraError, type ErrorCode } from '../errors/index.js'
import { checkDocumentTemplate } from '../embedders/document-template.js'
import { TUNING_FIELDS, embedderKind } from '../embedders/config.js'
import { checkRestTemplates } from '../embedders/rest-templates.js'
import type { Features } from '../features/index.js'
import { DEFAULT_DOCUMENT_TEMPLATE, DEFAULT_DOCUMENT_TEMPLATE_MAX_BYTES, type EmbedderKind, type EmbedderSettings } from './types.js'
import { clone, deepEqual, isObject } from '../json/value.js'
import { sortedMap } from '../json/byte-order.js'

const CODE: ErrorCode = 'invalid_settings_embedders'

/** Meilisearch's enum order (the order its messages list sources in). */
const KIND_ORDER: readonly EmbedderKind[] = ['hostedAi', 'localHub', 'localServer', 'userProvided', 'rest', 'composite']
const MEILI_SPELLING: Record<EmbedderKind, string> = { hostedAi: 'openAi', localHub: 'huggingFace', localServer: 'ollama', userProvided: 'userProvided', rest: 'rest', composite: 'composite' }
/** Accepted `source` values, in the order the "Unknown value" message lists them. */
export const SOURCE_VALUES = ['openAi', 'huggingFace', 'ollama', 'userProvided', 'rest', 'composite', 'hostedAi', 'localHub', 'localServer'] as const


/** The spec-only spellings select the spec's family in messages; every other spelling, Meilisearch's. */
function usesMeiliNames(source: string): boolean {
  return !['hostedAi', 'localHub', 'localServer'].includes(source)
}

/** How to spell `kind` in a message about an embedder whose source was spelled `given`. */
function spell(kind: EmbedderKind, given: string): string {
  return usesMeiliNames(given) ? MEILI_SPELLING[kind] : kind
}

// ---- the field table -------------------------------------------------------------------------------------

/** Meilisearch's `MetaEmbeddingSetting` order. */
export const EMBEDDER_FIELDS = ['source', 'model', 'revision', 'pooling', 'apiKey', 'dimensions', 'documentTemplate', 'documentTemplateMaxBytes', 'url', 'request', 'response', 'headers', 'searchEmbedder', 'indexingEmbedder', 'distribution', 'binaryQuantized'] as const
type EmbedderField = (typeof EMBEDDER_FIELDS)[number]

/** The accepted keys of an embedder object, in the struct's order (the "Unknown field" message lists these). */
export const EMBEDDER_KEYS = ['source', 'model', 'revision', 'pooling', 'apiKey', 'dimensions', 'binaryQuantized', 'documentTemplate', 'documentTemplateMaxBytes', 'url', 'request', 'response', 'headers', 'searchEmbedder', 'indexingEmbedder', 'distribution'] as const

type Context = 'notNested' | 'search' | 'indexing'
type Status = 'mandatory' | 'allowed' | 'disallowed'

function fieldStatus(kind: EmbedderKind, field: EmbedderField, context: Context): Status {
  if (field === 'distribution' || field === 'binaryQuantized') return context === 'notNested' ? 'allowed' : 'disallowed'
  if ((field === 'documentTemplate' || field === 'documentTemplateMaxBytes') && context === 'search') return 'disallowed'
  if (field === 'source') return 'allowed'
  const allowed = (...fields: EmbedderField[]) => (fields.includes(field) ? 'allowed' : 'disallowed')
  switch (kind) {
    case 'hostedAi': return allowed('model', 'apiKey', 'documentTemplate', 'documentTemplateMaxBytes', 'dimensions', 'url')
    case 'localHub': return allowed('model', 'revision', 'pooling', 'documentTemplate', 'documentTemplateMaxBytes')
    case 'localServer': return field === 'model' ? 'mandatory' : allowed('documentTemplate', 'documentTemplateMaxBytes', 'url', 'apiKey', 'dimensions')
    case 'userProvided': return field === 'dimensions' ? 'mandatory' : 'disallowed'
    case 'rest': return field === 'url' || field === 'request' || field === 'response' ? 'mandatory' : allowed('apiKey', 'dimensions', 'documentTemplate', 'documentTemplateMaxBytes', 'headers')
    case 'composite': return field === 'searchEmbedder' || field === 'indexingEmbedder' ? 'mandatory' : 'disallowed'
  }
}

const inContext = (c: Context) => (c === 'notNested' ? '' : c === 'search' ? ' for the search embedder' : ' for the indexing embedder')
const nameInContext = (name: string, c: Context) => (c === 'notNested' ? name : `${name}.${c === 'search' ? 'searchEmbedder' : 'indexingEmbedder'}`)
const ticks = (xs: readonly string[]) => xs.map((x) => `\`${x}\``).join(', ')

function invalidFieldForSource(name: string, source: string, field: EmbedderField, context: Context): TesseraError {
  const kind = embedderKind(source)
  const sources = KIND_ORDER.filter((k) => fieldStatus(k, field, context) !== 'disallowed').map((k) => spell(k, source))
  const fields = EMBEDDER_FIELDS.filter((f) => fieldStatus(kind, f, context) !== 'disallowed')
  let message = `\`.embedders.${nameInContext(name, context)}\`: Field \`${field}\` unavailable for source \`${source}\`${inContext(context)}.`
  if (sources.length > 0) message += `\n  - note: \`${field}\` is available for sources: ${ticks(sources)}`
  message += `\n  - note: available fields for source \`${source}\`${inContext(context)}: ${ticks(fields)}`
  if (context !== 'notNested' && fieldStatus(kind, field, 'notNested') !== 'disallowed') message += `\n  - note: \`${field}\` is available when source \`${source}\` is not${inContext(context)}`
  return new TesseraError(CODE, message)
}

function missingFieldForSource(name: string, source: string, field: EmbedderField): TesseraError {
  return new TesseraError(CODE, `\`.embedders.${name}\`: Missing field \`${field}\` (note: this field is mandatory for source \`${source}\`)`)
}

/** Meilisearch's `check_settings`: every field against the source's table, in its order. */
function checkFields(name: string, e: EmbedderUpdate, source: string, context: Context): void {
  const kind = embedderKind(source)
  const remote = kind === 'rest' || kind === 'hostedAi' || kind === 'localServer'
  for (const field of TUNING_FIELDS) {
    if (e[field] !== undefined && e[field] !== null && (!remote || context === 'search')) {
      throw new TesseraError(CODE, `\`.embedders.${nameInContext(name, context)}\`: Field \`${field}\` unavailable for source \`${source}\`${inContext(context)}.\n  - note: \`${field}\` is a Tessera extension available for remote sources (\`rest\`, \`openAi\`, \`ollama\`), not at search time`)
    }
  }
  const order: EmbedderField[] = ['model', 'revision', 'pooling', 'dimensions', 'apiKey', 'url', 'request', 'response', 'documentTemplate', 'documentTemplateMaxBytes', 'headers', 'searchEmbedder', 'indexingEmbedder', 'binaryQuantized', 'distribution']
  for (const field of order) {
    const status = fieldStatus(kind, field, context)
    const value = e[field]
    if (status === 'disallowed' && value !== undefined) throw invalidFieldForSource(name, source, field, context)
    if (status === 'mandatory' && (value === undefined || value === null)) throw missingFieldForSource(name, source, field)
  }
}

/** An embedder as sent: absent = unchanged, null = reset that field. */
export type EmbedderUpdate = { [K in Exclude<keyof EmbedderSettings, 'searchEmbedder' | 'indexingEmbedder'>]?: EmbedderSettings[K] | null } & { searchEmbedder?: EmbedderUpdate | null; indexingEmbedder?: EmbedderUpdate | null }

// ---- route-time (synchronous) checks ------------------------------------------------------------------------

/** Feature gates, as Meilisearch's `validate_settings` checks them (before the semantic checks). */
export function checkEmbedderFeatures(embedders: Record<string, EmbedderUpdate | null>, features: Features): void {
  for (const e of Object.values(embedders)) {
    if (!e) continue
    if (e.source === 'composite') features.require('compositeEmbedders', 'using `"composite"` as source')
    if (e.searchEmbedder) features.require('compositeEmbedders', 'setting `searchEmbedder`')
    if (e.indexingEmbedder) features.require('compositeEmbedders', 'setting `indexingEmbedder`')
  }
}

const OPENAI_MODELS: Record<string, { dimensions: number; overridable: boolean }> = {
  'text-embedding-ada-002': { dimensions: 1536, overridable: false },
  'text-embedding-3-small': { dimensions: 1536, overridable: true },
  'text-embedding-3-large': { dimensions: 3072, overridable: true },
}

function validatePrompt(name: string, e: EmbedderUpdate): void {
  if (typeof e.documentTemplate === 'string' && e.documentTemplateMaxBytes === 0) {
    throw new TesseraError(CODE, `\`.embedders.${name}.documentTemplateMaxBytes\`: \`documentTemplateMaxBytes\` cannot be zero`)
  }
  if (typeof e.documentTemplate === 'string') checkDocumentTemplate(name, e.documentTemplate)
}

/** What the `url` crate says about a URL it cannot parse (the common cases). */
function urlError(url: string): string | null {
  if (!/^[A-Za-z][A-Za-z0-9+.-]*:/.test(url)) return 'relative URL without a base'
  try {
    new URL(url)
    return null
  } catch {
    if (/^[A-Za-z][A-Za-z0-9+.-]*:\/\/(?:[^@/]*@)?(?:[:/?#]|$)/.test(url)) return 'empty host'
    if (/:\d*[^\d/?#]/.test(url.replace(/^[^:]*:\/\/[^/:]*/, ''))) return 'invalid port number'
    return 'invalid domain character'
  }
}

/**
 * Meilisearch's `validate_embedding_settings` on the update (synchronous 400s): the document template (max bytes,
 * then Liquid syntax), zero dimensions, URL syntax, the `request`/`response` templates, then — when the update
 * names a source — the per-source field table, the OpenAI model and dimensions, and the composite rules.
 */
export function validateEmbedder(name: string, e: EmbedderUpdate): void {
  validatePrompt(name, e)
  if (e.dimensions === 0) throw new TesseraError(CODE, `\`.embedders.${name}.dimensions\`: \`dimensions\` cannot be zero`)
  if (typeof e.url === 'string') {
    const problem = urlError(e.url)
    if (problem) throw new TesseraError(CODE, `\`.embedders.${name}.url\`: could not parse \`${e.url}\`: ${problem}`)
  }
  // Meilisearch parses a `request` it is sent, and the `response` with it (a `vector_embedding_error`).
  if (e.request !== undefined && e.request !== null) checkRestTemplates(e.request, e.response ?? undefined)
  if (typeof e.source !== 'string') return
  checkFields(name, e, e.source, 'notNested')
  checkSourceSpecific(name, e, e.source)
}

function checkSourceSpecific(name: string, e: EmbedderUpdate, source: string): void {
  const kind = embedderKind(source)
  if (kind === 'hostedAi' && typeof e.model === 'string') {
    const model = OPENAI_MODELS[e.model]
    if (!model) throw new TesseraError(CODE, `\`.embedders.${name}.model\`: Invalid model \`${e.model}\` for OpenAI. Supported models: ${JSON.stringify(Object.keys(OPENAI_MODELS)).replace(/,/g, ', ')}`)
    if (typeof e.dimensions === 'number') {
      if (!model.overridable && e.dimensions !== model.dimensions) {
        throw new TesseraError(CODE, `\`.embedders.${name}.dimensions\`: Model \`${e.model}\` does not support overriding its native dimensions of ${model.dimensions}. Found ${e.dimensions}`)
      }
      if (e.dimensions > model.dimensions) {
        throw new TesseraError(CODE, `\`.embedders.${name}.dimensions\`: Model \`${e.model}\` does not support overriding its dimensions to a value higher than ${model.dimensions}. Found ${e.dimensions}`)
      }
    }
  }
  if (kind === 'composite') {
    for (const context of ['search', 'indexing'] as const) {
      const sub = context === 'search' ? e.searchEmbedder : e.indexingEmbedder
      if (!sub) continue
      if (context === 'indexing') validatePrompt(name, sub)
      if (typeof sub.source !== 'string') {
        throw new TesseraError(CODE, `\`.embedders.${nameInContext(name, context)}\`: Missing field \`source\`.\n  - note: this field is mandatory for nested embedders`)
      }
      const subKind = embedderKind(sub.source)
      if (subKind === 'composite' || subKind === 'userProvided') {
        throw new TesseraError(CODE, `\`.embedders.${nameInContext(name, context)}.source\`: Source \`${sub.source}\` is not available in a nested embedder`)
      }
      checkFields(name, sub, sub.source, context)
    }
  }
}

// ---- application (task time) ---------------------------------------------------------------------------------

const HF_DEFAULT_MODEL = 'BAAI/bge-base-en-v1.5'
const HF_DEFAULT_REVISION = '617ca489d9e86b49b8167676d8220688b99db36e'
const OPENAI_DEFAULT_MODEL = 'text-embedding-3-small'

/** Fields a source change resets (Meilisearch's `apply_default_for_source`); the template, key and options stay. */
const SOURCE_BOUND: (keyof EmbedderSettings)[] = ['model', 'revision', 'pooling', 'dimensions', 'url', 'request', 'response', 'headers', 'searchEmbedder', 'indexingEmbedder']

function mergeInto(target: EmbedderSettings, update: EmbedderUpdate, nested: boolean): void {
  const t = target as unknown as Record<string, unknown>
  if (typeof update.source === 'string' && target.source !== update.source && embedderKind(target.source) !== embedderKind(update.source)) {
    for (const key of [...SOURCE_BOUND, ...TUNING_FIELDS]) delete t[key]
    if (embedderKind(update.source) === 'userProvided') { delete t.documentTemplate; delete t.documentTemplateMaxBytes }
  }
  if (typeof update.model === 'string' && update.revision === undefined && target.model !== update.model) delete t.revision
  for (const key of Object.keys(update) as (keyof EmbedderUpdate)[]) {
    const value = update[key]
    if (value === undefined) continue
    if (value === null) { if (key !== 'source') delete t[key]; continue }
    if ((key === 'searchEmbedder' || key === 'indexingEmbedder') && !nested) {
      const sub: EmbedderSettings = (t[key] as EmbedderSettings | undefined) ? clone(t[key] as EmbedderSettings) : { source: (value as EmbedderUpdate).source ?? 'openAi' }
      mergeInto(sub, value as EmbedderUpdate, true)
      t[key] = sub
      continue
    }
    t[key] = clone(value)
  }
}

/** The defaults Meilisearch fills in for a source (shown by GET). */
function fillDefaults(e: EmbedderSettings, context: Context): void {
  const kind = embedderKind(e.source)
  const templated = kind !== 'userProvided' && kind !== 'composite' && context !== 'search'
  if (kind === 'hostedAi' && e.model === undefined) e.model = OPENAI_DEFAULT_MODEL
  if (kind === 'localHub') {
    if (e.model === undefined) { e.model = HF_DEFAULT_MODEL; if (e.revision === undefined) e.revision = HF_DEFAULT_REVISION }
    if (e.pooling === undefined) e.pooling = 'useModel'
  }
  if (templated) {
    if (e.documentTemplate === undefined) e.documentTemplate = DEFAULT_DOCUMENT_TEMPLATE
    if (e.documentTemplateMaxBytes === undefined) e.documentTemplateMaxBytes = DEFAULT_DOCUMENT_TEMPLATE_MAX_BYTES
  }
  if (kind === 'rest' && e.headers === undefined) e.headers = {}
  if (e.searchEmbedder) fillDefaults(e.searchEmbedder, 'search')
  if (e.indexingEmbedder) fillDefaults(e.indexingEmbedder, 'indexing')
}

/** Merge one embedder update into the stored embedder (or create it). Throws the task errors Meilisearch gives. */
export function applyEmbedder(name: string, current: EmbedderSettings | undefined, update: EmbedderUpdate): { embedder: EmbedderSettings; reembed: boolean } {
  if (current?.binaryQuantized === true && update.binaryQuantized === false) {
    throw new TesseraError(CODE, `\`.embedders.${name}.binaryQuantized\`: Cannot disable the binary quantization.\n - Note: Binary quantization is a lossy operation that cannot be reverted.\n - Hint: Add a new embedder that is non-quantized and regenerate the vectors.`)
  }
  const embedder: EmbedderSettings = current ? clone(current) : { source: update.source ?? 'openAi' }
  mergeInto(embedder, update, false)
  // The fused settings must satisfy the table (Meilisearch validates them again when applying).
  const fused = embedder as EmbedderUpdate
  validatePrompt(name, fused)
  checkFields(name, fused, embedder.source, 'notNested')
  checkSourceSpecific(name, fused, embedder.source)
  fillDefaults(embedder, 'notNested')
  return { embedder: ordered(embedder), reembed: current === undefined || needsReembedding(current, embedder) }
}

function needsReembedding(old: EmbedderSettings, next: EmbedderSettings): boolean {
  const kind = embedderKind(next.source)
  if (embedderKind(old.source) !== kind) return true
  for (const key of ['model', 'revision', 'pooling', 'request', 'response', 'documentTemplate', 'searchEmbedder', 'indexingEmbedder'] as const) {
    if (!deepEqual(old[key], next[key])) return true
  }
  if (kind !== 'hostedAi' && old.url !== next.url) return true
  if (kind === 'hostedAi' && old.dimensions !== next.dimensions) return true
  if ((next.documentTemplateMaxBytes ?? DEFAULT_DOCUMENT_TEMPLATE_MAX_BYTES) > (old.documentTemplateMaxBytes ?? DEFAULT_DOCUMENT_TEMPLATE_MAX_BYTES)) return true
  if (next.binaryQuantized === true && old.binaryQuantized !== true) return true
  return false
}

/** Keys in Meilisearch's serialization order (the struct's). */
export function ordered<T extends EmbedderUpdate | EmbedderSettings>(e: T): T {
  const out: Record<string, unknown> = {}
  for (const key of [...EMBEDDER_KEYS, ...TUNING_FIELDS]) {
    const value = (e as Record<string, unknown>)[key]
    if (value === undefined) continue
    if ((key === 'searchEmbedder' || key === 'indexingEmbedder') && isObject(value)) out[key] = ordered(value as unknown as EmbedderSettings)
    else if (key === 'headers' && isObject(value)) out[key] = sortedMap(value)
    else out[key] = value
  }
  return out as T
}

/** Meilisearch's `hide_secret`: keep a prefix that grows with the length, then X's. */
export function maskSecret(secret: string): string {
  const n = Buffer.byteLength(secret)
  if (n < 10) return 'XXX...'
  if (n < 20) return `${secret.slice(0, 2)}XXXX...`
  if (n < 30) return `${secret.slice(0, 3)}XXXXX...`
  return `${secret.slice(0, 5)}XXXXXX...`
}

/** A copy with every `apiKey` (also in sub-embedders) masked. */
export function maskEmbedder<T extends EmbedderUpdate | EmbedderSettings | null>(e: T): T {
  if (!e) return e
  const out = { ...e } as Record<string, unknown>
  if (typeof out.apiKey === 'string') out.apiKey = maskSecret(out.apiKey)
  for (const sub of ['searchEmbedder', 'indexingEmbedder']) if (isObject(out[sub])) out[sub] = maskEmbedder(out[sub] as unknown as EmbedderSettings)
  return out as T
}

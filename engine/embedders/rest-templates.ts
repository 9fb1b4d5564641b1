/**
 * The `request` and `response` templates of remote embedders: parsing them with Meilisearch's rules and
 * messages (`embedder/rest.rs`, `Request::new` / `Response::new`), the settings-time check, and reading a vector
 * out of a response value as serde would (`Vec<f32>`). Kept apart from the embedder so the settings code can
 * check templates without loading the HTTP client.
 */
import { EmbedError, couldNotParseTemplate, generationFailed } from './errors.js'
import { InjectableValue, parsingErrorMessage } from './json-template.js'

export const REQUEST_PLACEHOLDER = '{{text}}'
export const RESPONSE_PLACEHOLDER = '{{embedding}}'
export const REPEAT_PLACEHOLDER = '{{..}}'

function parseRequestTemplate(request: unknown): InjectableValue | EmbedError {
  const req = InjectableValue.parse(request, REQUEST_PLACEHOLDER, REPEAT_PLACEHOLDER)
  if (req instanceof InjectableValue) return req
  const message = parsingErrorMessage(req, 'request', REQUEST_PLACEHOLDER, REPEAT_PLACEHOLDER)
  return couldNotParseTemplate(`${message}\n  - Note: this template is using a document template, and so expects to contain the placeholder "{{text}}" rather than "{{fragment}}"`)
}

/** The request and response templates of a remote embedder, or the user error that refuses them. */
export function parseRestTemplates(request: unknown, response: unknown): { request: InjectableValue; response: InjectableValue } | EmbedError {
  const req = parseRequestTemplate(request)
  if (req instanceof EmbedError) return req
  const res = InjectableValue.parse(response, RESPONSE_PLACEHOLDER, REPEAT_PLACEHOLDER)
  if (!(res instanceof InjectableValue)) return couldNotParseTemplate(parsingErrorMessage(res, 'response', RESPONSE_PLACEHOLDER, REPEAT_PLACEHOLDER))
  if (res.repeated && !req.repeated) return couldNotParseTemplate('in `response`: `response` has multiple embeddings, but `request` has only one text to embed')
  if (!res.repeated && req.repeated) return couldNotParseTemplate('in `response`: `response` has a single embedding, but `request` has multiple texts to embed')
  return { request: req, response: res }
}

/**
 * The settings-time check of a `rest` embedder's `request`, and of its `response` when the update gives one too (a
 * synchronous 400 in Meilisearch, `validate_embedding_settings`): throws `vector_embedding_error` with
 * `Error while generating embeddings: user error: in \`request\`: …`.
 */
export function checkRestTemplates(request: unknown, response?: unknown): void {
  if (response === undefined) {
    const parsed = parseRequestTemplate(request)
    if (parsed instanceof EmbedError) throw generationFailed(parsed)
    return
  }
  const parsed = parseRestTemplates(request, response)
  if (parsed instanceof EmbedError) throw generationFailed(parsed)
}

/** How serde names a JSON value it did not expect (`invalid type: <this>, expected …`). */
function unexpected(value: unknown): string {
  if (value === null) return 'null'
  if (typeof value === 'boolean') return `boolean \`${value}\``
  if (typeof value === 'number') return Number.isInteger(value) ? `integer \`${value}\`` : `floating point \`${value}\``
  if (typeof value === 'string') return `string ${JSON.stringify(value)}`
  return Array.isArray(value) ? 'sequence' : 'map'
}

/** A JSON value as a vector of f32, or serde's message when it is not an array of numbers. */
export function toEmbedding(value: unknown): Float32Array | { error: string } {
  if (!Array.isArray(value)) return { error: `invalid type: ${unexpected(value)}, expected a sequence` }
  const out = new Float32Array(value.length)
  for (let i = 0; i < value.length; i++) {
    const x = value[i]
    if (typeof x !== 'number') return { error: `invalid type: ${unexpected(x)}, expected f32` }
    out[i] = x
  }
  return out
}

/**
 * Embedding failures, worded as Meilisearch words them (`milli/src/vector/error.rs`).
 *
 * Inside this folder a failure is an `EmbedError`: a fault (whose fault it is, printed first) and a detail, plus
 * what the request loop should do about it (`retry`). Meilisearch prints one as `{fault}: {detail}` — that text
 * is also what `embedderRequests.lastError` shows. At the public boundary it becomes a `TesseraError`
 * (`vector_embedding_error`) with the prefix of the operation that failed:
 *   - creating an embedder (the dimension probe, a composite's checks) and embedding a query:
 *     `Error while generating embeddings: {fault}: {detail}`
 *   - embedding documents: ``While embedding documents for embedder `{name}`: {fault}: {detail}``
 * The scheduler adds ``Index `{uid}`: `` in front, as it does for every task error.
 */
import { TesseraError } from '../errors/index.js'

export type Fault = 'user' | 'runtime' | 'bug' | 'undecided'

const FAULT_TEXT: Record<Fault, string> = { user: 'user error', runtime: 'runtime error', bug: 'coding error', undecided: 'error' }

/**
 * What the request loop does after a failed attempt (Meilisearch's `RetryStrategy`): `giveUp` fails at once,
 * `retry` waits 10^attempt ms, `rateLimited` waits 100 + 10^attempt ms (or the server's `Retry-After`).
 */
export type RetryStrategy = 'giveUp' | 'retry' | 'rateLimited'

export class EmbedError extends Error {
  readonly fault: Fault
  readonly detail: string
  readonly retry: RetryStrategy
  /** How long the server asked us to wait (`Retry-After`, in ms), when it did. */
  retryAfterMs: number | null = null
  /** The HTTP status and body of the answer this error reports, when it reports one. */
  status: number | null = null
  body: string | null = null
  constructor(fault: Fault, detail: string, retry: RetryStrategy = 'giveUp') {
    super(`${FAULT_TEXT[fault]}: ${detail}`)
    this.fault = fault
    this.detail = detail
    this.retry = retry
  }
  /** `{fault}: {detail}`, the text Meilisearch shows for it (and records as `lastError`). */
  get reason(): string {
    return this.message
  }
}

/** The public error: a `vector_embedding_error` that remembers the embedding failure it reports. */
export class EmbeddingError extends TesseraError {
  readonly embedError: EmbedError
  constructor(message: string, embedError: EmbedError) {
    super('vector_embedding_error', message)
    this.embedError = embedError
  }
}

/** A failure while creating an embedder or embedding a query. */
export function generationFailed(error: EmbedError): EmbeddingError {
  return new EmbeddingError(`Error while generating embeddings: ${error.reason}`, error)
}

/** A failure while embedding documents for the embedder `name`. */
export function documentsFailed(name: string, error: EmbedError): EmbeddingError {
  return new EmbeddingError(`While embedding documents for embedder \`${name}\`: ${error.reason}`, error)
}

/** `\n  - {prefix}\`{info}\`` when there is info (Meilisearch's `option_info`). */
export function optionInfo(info: string | null, prefix: string): string {
  return info === null ? '' : `\n  - ${prefix}\`${info}\``
}

/** Which product's wording a remote failure uses (Meilisearch's `ConfigurationSource`). */
export type ConfigurationSource = 'user' | 'hostedAi' | 'localServer'

const SERVER_NAME: Record<ConfigurationSource, string> = { user: 'embedding', hostedAi: 'OpenAI', localServer: 'Ollama' }
const KEY_HINT: Record<ConfigurationSource, string> = {
  user: '\n  - Hint: Check the `apiKey` parameter in the embedder configuration',
  hostedAi: '\n  - Hint: Check the `apiKey` parameter in the embedder configuration, and the `HOSTED_AI_API_KEY` environment variable',
  localServer: '\n  - Hint: Check the `apiKey` parameter in the embedder configuration',
}

const reply = (body: string | null) => optionInfo(body, 'server replied with ')

/** The error an HTTP status gives, and whether to retry (Meilisearch's `check_response`). */
export function statusError(status: number, body: string | null, source: ConfigurationSource): EmbedError {
  const error = statusErrorKind(status, body, source)
  error.status = status
  error.body = body
  return error
}

function statusErrorKind(status: number, body: string | null, source: ConfigurationSource): EmbedError {
  if (status === 401) return new EmbedError('user', `could not authenticate against ${SERVER_NAME[source]} server${reply(body)}${KEY_HINT[source]}`)
  if (status === 429) return new EmbedError('runtime', `sent too many requests to embedding server${reply(body)}`, 'rateLimited')
  if (status === 400) {
    const hint = source === 'user' ? "\n  - Hint: check that the `request` in the embedder configuration matches the remote server's API" : ''
    return new EmbedError('user', `sent a bad request to embedding server${hint}${reply(body)}`)
  }
  if (status >= 500 && status <= 599) return new EmbedError('runtime', `received internal error HTTP ${status} from embedding server${reply(body)}`, 'retry')
  if (status >= 402 && status <= 499) return new EmbedError('undecided', `received unexpected HTTP ${status} from embedding server${reply(body)}`)
  return new EmbedError('undecided', `received unexpected HTTP ${status} from embedding server${reply(body)}`, 'retry')
}

export const networkError = (message: string, retry: RetryStrategy = 'retry') => new EmbedError('runtime', `could not reach embedding server:\n  - ${message}`, retry)
export const responseNotJson = (message: string) => new EmbedError('runtime', `error deserializing the response body as JSON:\n  - ${message}`, 'retry')
export const extractionError = (message: string) => new EmbedError('runtime', `error extracting embeddings from the response:\n  - ${message}`)
export const embeddingCount = (expected: number, got: number) => new EmbedError('runtime', `expected a response containing ${expected} embeddings, got only ${got}`)
export const unexpectedDimension = (expected: number, got: number) => new EmbedError('runtime', `was expecting embeddings of dimension \`${expected}\`, got embeddings of dimensions \`${got}\``)
export const missingEmbedding = () => new EmbedError('undecided', 'no embedding was produced')
export const manualEmbed = (text: string) => new EmbedError('user', `attempt to embed the following text in a configuration where embeddings must be user provided:\n  - \`${text}\``)
export const modelNotFoundOnServer = (body: string | null) =>
  new EmbedError('user', `model not found. Tessera will not automatically download models from the Ollama library, please pull the model manually${reply(body)}`)

/** The creation-time failure wrapping a failed dimension probe. */
export const couldNotDetermineDimension = (inner: EmbedError) =>
  new EmbedError('runtime', `could not determine model dimensions:\n  - test embedding failed with ${inner.reason}`)
/** A bad `request`/`response` template (a user error, found when the settings are validated). */
export const couldNotParseTemplate = (message: string) => new EmbedError('user', message)
export const unsupportedOllamaUrl = (url: string) =>
  new EmbedError('user', `unsupported Ollama URL.\n  - For \`ollama\` sources, the URL must end with \`/api/embed\` or \`/api/embeddings\`\n  - Got \`${url}\``)

/**
 * Searching a remote instance: one federated `POST {url}/multi-search` carrying the queries meant for it, as
 * Meilisearch proxies them (`search/federated/proxy.rs`): the remote's `searchApiKey` as `Authorization: Bearer`,
 * the `Meili-Proxy-Search: true` header (the remote then answers hits with the scores needed to merge them), a
 * deadline of at most 5 s within the search's own, and up to 3 retries for failures that may pass (a request that
 * could not be sent, a 5xx, a body that is not a federated result). A timeout, a 401/403 and other 4xx are final.
 *
 * Failures are values, not exceptions: they become the remote's entry in `remoteErrors` while the other hosts'
 * hits are still returned. Messages are Meilisearch's (`ProxySearchError`).
 */
import { TesseraError } from '../errors/index.js'
import type { JsonObject } from '../json/value.js'
import type { Remote } from './types.js'

export const PROXY_SEARCH_HEADER = 'meili-proxy-search'

/** A remote's share of a federated search. */
export interface RemoteRequest {
  name: string
  remote: Remote
  /** Multi-search queries (JSON bodies, `federationOptions.queryPosition` set, no `remote`). */
  queries: JsonObject[]
  /** The `federation` object sent along (pagination adjusted, no `mergeFacets`). */
  federation: JsonObject
}

export type RemoteOutcome = { name: string; result: JsonObject } | { name: string; error: TesseraError }

/** The most one remote is given, whatever the search's own deadline. */
const MAX_REMOTE_MS = 5_000
const RETRIES = 3
const HINT_SAME_VERSION = '\n  - hint: check that the remote instance is a Meilisearch instance running the same version'

class Final extends Error {
  constructor(readonly error: TesseraError) { super(error.message) }
}

function fromRemote(body: string): string {
  return `:\n  - response from remote: ${body}`
}

const TIMEOUT = () => new Final(new TesseraError('remote_timeout', 'remote host did not answer before the deadline'))

function isTimeout(err: unknown): boolean {
  return err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError')
}

/**
 * The answer's body; a body cut short is reported as Meilisearch reports it ("could not retrieve response"), and
 * the deadline also bounds reading it.
 */
async function bodyOf(response: Response, what: (detail: string) => Error): Promise<string> {
  try {
    return await response.text()
  } catch (err) {
    if (isTimeout(err)) throw TIMEOUT()
    throw what(`:\n  - additionally, could not retrieve response from remote: error decoding response body`)
  }
}

/** The body of a failed answer, re-serialized when it is JSON (as serde_json's `Value::to_string` would). */
async function errorBody(response: Response, what: (detail: string) => Error): Promise<string> {
  const text = await bodyOf(response, what)
  try {
    return fromRemote(JSON.stringify(JSON.parse(text)))
  } catch {
    return fromRemote(text)
  }
}

/** One attempt; throws `Final` for failures not worth retrying, `TesseraError` for the others. */
async function attempt(request: RemoteRequest, deadline: number): Promise<JsonObject> {
  const headers: Record<string, string> = { 'content-type': 'application/json', [PROXY_SEARCH_HEADER]: 'true' }
  if (request.remote.searchApiKey !== null) headers.authorization = `Bearer ${request.remote.searchApiKey}`
  const url = `${request.remote.url.replace(/\/$/, '')}/multi-search`
  let response: Response
  try {
    response = await fetch(url, {
      method: 'POST', headers, body: JSON.stringify({ queries: request.queries, federation: request.federation }),
      signal: AbortSignal.timeout(Math.max(1, deadline - Date.now())),
    })
  } catch (err) {
    if (isTimeout(err)) throw TIMEOUT()
    throw new TesseraError('remote_could_not_send_request', 'error sending request')
  }
  const status = response.status
  if (status === 401 || status === 403) {
    throw new Final(new TesseraError('remote_invalid_api_key', 'could not authenticate against the remote host\n  - hint: check that the remote instance was registered with a valid API key having the `search` action'))
  }
  if (status >= 400 && status < 500) {
    const badRequest = (detail: string) => new Final(new TesseraError('remote_bad_request', `remote host responded with code ${status}${detail}\n  - hint: check that the remote instance has the correct index configuration for that request\n  - hint: check that the \`network\` experimental feature is enabled on the remote instance`))
    throw badRequest(await errorBody(response, badRequest))
  }
  if (status >= 500) {
    const remoteError = (detail: string) => new TesseraError('remote_remote_error', `remote host responded with code ${status}${detail}`)
    throw remoteError(await errorBody(response, remoteError))
  }
  const badResponse = (detail: string) => new TesseraError('remote_bad_response', `could not parse response from the remote host as a federated search response${detail}${HINT_SAME_VERSION}`)
  const text = await bodyOf(response, badResponse)
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    body = undefined
  }
  if (body === null || typeof body !== 'object' || !Array.isArray((body as JsonObject).hits)) {
    throw badResponse(fromRemote(text))
  }
  return body as JsonObject
}

function checkHits(result: JsonObject): TesseraError | null {
  for (const hit of result.hits as unknown[]) {
    const federation = (hit as JsonObject | null)?._federation
    if (federation === undefined) return new TesseraError('remote_bad_response', `remote hit does not contain \`._federation\`${HINT_SAME_VERSION}`)
    if (federation === null || typeof federation !== 'object' || Array.isArray(federation)) {
      return new TesseraError('remote_bad_response', `remote hit contains an unexpected value at path \`._federation\`: expected map, received \`${JSON.stringify(federation)}\`${HINT_SAME_VERSION}`)
    }
    for (const key of ['weightedScoreValues', 'weightedRankingScore']) {
      if (!(key in federation)) return new TesseraError('remote_bad_response', `remote hit does not contain \`._federation.${key}\`${HINT_SAME_VERSION}`)
    }
  }
  return null
}

/** Search one remote, retrying as Meilisearch does; never throws. */
export async function searchRemote(request: RemoteRequest, searchDeadline: number): Promise<RemoteOutcome> {
  const deadline = Math.min(searchDeadline, Date.now() + MAX_REMOTE_MS)
  let last: TesseraError | null = null
  for (let i = 0; i <= RETRIES; i++) {
    try {
      const result = await attempt(request, deadline)
      const bad = checkHits(result)
      return bad === null ? { name: request.name, result } : { name: request.name, error: bad }
    } catch (err) {
      if (err instanceof Final) return { name: request.name, error: err.error }
      if (!(err instanceof TesseraError)) throw err
      last = err
      if (i === RETRIES || Date.now() >= deadline) break
      // 10^i ns, at most 100 ms, plus up to as much again at random (Meilisearch's `Retry::into_duration`).
      const wait = Math.min(10 ** i / 1e6, 100)
      await new Promise((resolve) => setTimeout(resolve, wait + Math.random() * wait))
    }
  }
  return { name: request.name, error: last! }
}

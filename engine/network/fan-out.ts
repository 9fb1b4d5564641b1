/**
 * The remote half of a federated search: every remote of the plan searched at once, within the search's deadline
 * (Meilisearch: `MEILI_EXPERIMENTAL_REMOTE_SEARCH_TIMEOUT_SECONDS`, 25 s by default; Tessera:
 * `TESSERA_EXPERIMENTAL_REMOTE_SEARCH_TIMEOUT_SECONDS`), and the marks a proxied search puts on its hits.
 */
import { TesseraError } from '../errors/index.js'
import type { JsonObject } from '../json/value.js'
import type { Federation } from '../search/request.js'
import { remoteFederation } from './remote-results.js'
import { searchRemote, type RemoteOutcome } from './remote-search.js'
import type { NetworkPlan } from './routing.js'

export interface RemoteSearchOptions {
  /** The request came from another instance (`Meili-Proxy-Search: true`): answer hits with their score values. */
  proxied?: boolean
  /** How long remotes may take, in all (default 25 s). */
  timeoutMs?: number
}

export const DEFAULT_REMOTE_SEARCH_TIMEOUT_MS = 25_000

export function startRemoteSearches(plan: NetworkPlan, federation: Federation, options: RemoteSearchOptions): Promise<RemoteOutcome[]> {
  if (plan.remote.size === 0) return Promise.resolve([])
  const deadline = Date.now() + (options.timeoutMs ?? DEFAULT_REMOTE_SEARCH_TIMEOUT_MS)
  const body = remoteFederation(federation)
  // An unexpected failure is that remote's error, never a rejection left unobserved if the local search fails first.
  return Promise.all([...plan.remote.values()].map((request) => searchRemote({ ...request, federation: body }, deadline)
    .catch((err: unknown): RemoteOutcome => ({ name: request.name, error: new TesseraError('internal', err instanceof Error ? err.message : String(err)) }))))
}

/**
 * Hits answered to a proxied search carry `_federation.weightedScoreValues`, which the searching instance merges
 * by. Meilisearch lists one value per ranking rule; Tessera gives the weighted global score alone, which orders
 * hits the same way between Tessera instances (a Meilisearch instance merging them sees no sort values).
 */
export function withScoreValues(hits: JsonObject[]): JsonObject[] {
  return hits.map((hit) => {
    const federation = hit._federation as JsonObject
    return { ...hit, _federation: { ...federation, weightedScoreValues: [{ weightedScore: federation.weightedRankingScore }] } }
  })
}

/**
 * The remote half of a federated search: every remote of the plan searched at once, within the search's deadline
 * (Meilisearch: `MEILI_EXPERIMENTAL_REMOTE_SEARCH_TIMEOUT_SECONDS`, 25 s by default; Tessera:
 * `TESSERA_EXPERIMENTAL_REMOTE_SEARCH_TIMEOUT_SECONDS`), and the marks a proxied search puts on its hits.
 */
import { TesseraError } from '../errors/index.js'
import type { JsonObject } from '../json/value.js'
import type { Federation } from '../search/request.js'
import { remoteFederation } from './remote-results.js'
import { searchRemote, type RemoteOutcome, type RemoteRequest } from './remote-search.js'
import type { NetworkPlan } from './routing.js'
import { assignShards, markDown, restrictedBody } from './shard-routing.js'

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
  return searchAll([...plan.remote.values()].map((request) => ({ ...request, federation: body })), deadline)
    .then((outcomes) => plan.shardQueries.size === 0 ? outcomes : askOtherOwners(plan, outcomes, body, deadline))
}

function searchAll(requests: RemoteRequest[], deadline: number): Promise<RemoteOutcome[]> {
  // An unexpected failure is that remote's error, never a rejection left unobserved if the local search fails first.
  return Promise.all(requests.map((request) => searchRemote(request, deadline)
    .catch((err: unknown): RemoteOutcome => ({ name: request.name, error: new TesseraError('internal', err instanceof Error ? err.message : String(err)) }))))
}

/**
 * Sharded `useNetwork`: the shards of an owner that failed are asked of other owners (this instance excluded: it
 * answered for its own shards already), once. The failed owner's error is left out of `remoteErrors` when every one
 * of its shards found another owner; the other owners' own failures are reported under their names.
 */
async function askOtherOwners(plan: NetworkPlan, outcomes: RemoteOutcome[], federation: JsonObject, deadline: number): Promise<RemoteOutcome[]> {
  const failed = outcomes.filter((o) => 'error' in o && plan.shardQueries.has(o.name))
  if (failed.length === 0) return outcomes
  for (const { name } of failed) markDown(plan.network.remotes[name]!.url)
  const excluded = new Set([...failed.map((o) => o.name), ...(plan.network.self === null ? [] : [plan.network.self])])
  const retries = new Map<string, RemoteRequest>()
  const covered = new Set<string>()
  for (const { name } of failed) {
    let all = true
    for (const { body, shards } of plan.shardQueries.get(name)!) {
      const network = { ...plan.network, shards: Object.fromEntries(shards.map((s) => [s, plan.network.shards[s]!])) }
      const assigned = assignShards(network, excluded)
      if ([...assigned.values()].flat().length < shards.length) all = false
      for (const [owner, theirs] of assigned) {
        let request = retries.get(owner)
        if (request === undefined) retries.set(owner, (request = { name: owner, remote: plan.network.remotes[owner]!, queries: [], federation }))
        request.queries.push(restrictedBody(body, theirs))
      }
    }
    if (all) covered.add(name)
  }
  const again = await searchAll([...retries.values()], deadline)
  return [...outcomes.filter((o) => !covered.has(o.name) || !('error' in o)), ...again]
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

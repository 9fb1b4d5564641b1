/**
 * Where each query of a federated search runs (`search/federated/perform.rs`, `PartitionedQueries::partition`, and
 * `network.rs`, `Partition::ByRemote`):
 *
 * - without `federationOptions.remote`, on this instance;
 * - with a `remote` naming this instance (`network.self`), on this instance too;
 * - with another remote, on that remote, which must be registered (`invalid_multi_search_remote` otherwise);
 * - with `useNetwork: true`, once on every remote of the network (this instance included when it is one of them),
 *   so that a document held by one remote is returned once; over a sharded network, once per shard, on one of its
 *   owners (shard-routing.ts).
 *
 * Naming a remote needs the `network` feature, and so does `useNetwork` (even `false`).
 */
import { TesseraError } from '../errors/index.js'
import type { Features } from '../features/index.js'
import type { JsonObject } from '../json/value.js'
import type { MultiSearchQuery } from '../search/request.js'
import { remoteQueryBody } from './query-body.js'
import type { Network } from './types.js'
import type { RemoteRequest } from './remote-search.js'
import { assignShards, isSharded, restrictedBody, shardFilter, type ShardQuery } from './shard-routing.js'

/** The queries a federated search sends to remotes, by remote name; and whether it names any remote. */
export interface NetworkPlan {
  /** Queries run here (by their index in the request); a query may run here and on remotes (`useNetwork`). */
  local: Set<number>
  remote: Map<string, Omit<RemoteRequest, 'federation'>>
  /** Some query named a remote (this instance included): hits then say which remote they come from. */
  hasRemote: boolean
  /** This instance's name in the network, put in `_federation.remote` of its own hits. */
  self: string | null
  /** Indexes some remote is asked about (they need not exist here). */
  remoteIndexes: Set<string>
  /** Merge positions of `useNetwork` queries: their hits are deduplicated by document id across hosts. */
  networkPositions: Set<number>
  /** Sharded `useNetwork` queries run here: the `_shard IN [...]` filter each adds (shard-routing.ts). */
  localFilters: Map<number, string>
  /** Sharded `useNetwork` queries sent to each remote, so that another owner can be asked if it fails. */
  shardQueries: Map<string, ShardQuery[]>
  /** The network the plan was made with. */
  network: Network
}

export function emptyPlan(network: Network): NetworkPlan {
  return {
    local: new Set(), remote: new Map(), hasRemote: false, self: network.self, remoteIndexes: new Set(), networkPositions: new Set(),
    localFilters: new Map(), shardQueries: new Map(), network,
  }
}

/** The remotes query `n` goes to (`null` is this instance), checking the feature gates. */
function targets(features: Features, network: Network, query: MultiSearchQuery, n: number): (string | null)[] {
  const remote = query.federationOptions?.remote ?? null
  if (query.query.useNetwork !== null) features.require('network', 'passing `useNetwork` in a search query')
  if (query.query.useNetwork === true) {
    // GUESSED: the wording of Meilisearch's `RemoteAndUseNetwork` refusal.
    if (remote !== null) throw new TesseraError('invalid_multi_search_remote', `Inside \`.queries[${n}]\`: Using \`federationOptions.remote\` is not allowed with \`useNetwork: true\`.\n - Hint: remove \`federationOptions.remote\` or \`useNetwork\` from query #${n}`)
    return Object.keys(network.remotes)
  }
  return [remote]
}

/**
 * Route query `n` (called in query order, so errors come in Meilisearch's order). `position` is the query's merge
 * position, sent to remotes as `queryPosition` so their hits name the position of the original request.
 */
export function routeQuery(plan: NetworkPlan, features: Features, network: Network, query: MultiSearchQuery, n: number, position: number): void {
  if (query.query.useNetwork === true) plan.networkPositions.add(position)
  const hosts = targets(features, network, query, n)
  if (query.query.useNetwork === true && isSharded(network)) return routeShards(plan, features, network, query, n, position)
  for (const target of hosts) {
    if (target === null) { plan.local.add(n); continue }
    plan.hasRemote = true
    features.require('network', 'Performing a remote federated search')
    if (target === network.self) { plan.local.add(n); continue }
    // Own names only: a remote called `constructor` is not `Object.prototype.constructor`.
    const remote = Object.hasOwn(network.remotes, target) ? network.remotes[target] : undefined
    if (remote === undefined) {
      throw new TesseraError('invalid_multi_search_remote', `Invalid \`queries[${n}].federation_options.remote\`: remote \`${target}\` is not registered`)
    }
    const options: JsonObject = { weight: query.federationOptions?.weight ?? 1, queryPosition: position }
    let request = plan.remote.get(target)
    if (request === undefined) plan.remote.set(target, (request = { name: target, remote, queries: [] }))
    request.queries.push(remoteQueryBody(query.indexUid, query.query, options))
    plan.remoteIndexes.add(query.indexUid)
  }
}

/** A `useNetwork` query over a sharded network: each shard once, on one of its owners (shard-routing.ts). */
function routeShards(plan: NetworkPlan, features: Features, network: Network, query: MultiSearchQuery, n: number, position: number): void {
  plan.hasRemote = true
  features.require('network', 'Performing a remote federated search')
  for (const [owner, shards] of assignShards(network)) {
    if (owner === network.self) {
      plan.local.add(n)
      plan.localFilters.set(n, shardFilter(shards))
      continue
    }
    const body = remoteQueryBody(query.indexUid, query.query, { weight: query.federationOptions?.weight ?? 1, queryPosition: position })
    let request = plan.remote.get(owner)
    if (request === undefined) plan.remote.set(owner, (request = { name: owner, remote: network.remotes[owner]!, queries: [] }))
    request.queries.push(restrictedBody(body, shards))
    plan.shardQueries.set(owner, [...(plan.shardQueries.get(owner) ?? []), { body, shards }])
    plan.remoteIndexes.add(query.indexUid)
  }
}

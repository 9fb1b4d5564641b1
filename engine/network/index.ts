/**
 * The network: other instances this one knows (`/network`), and searching them (`federationOptions.remote`,
 * `useNetwork`). What is built and what is not is in the README, "Network".
 */
export { NetworkConfig } from './config.js'
export { emptyNetwork, NIL_VERSION, type Network, type NetworkPatch, type Remote, type RemotePatch, type Shard, type ShardPatch } from './types.js'
export { urlParseError } from './url.js'
export { emptyPlan, routeQuery, type NetworkPlan } from './routing.js'
export { startRemoteSearches, withScoreValues, DEFAULT_REMOTE_SEARCH_TIMEOUT_MS, type RemoteSearchOptions } from './fan-out.js'
export { PROXY_SEARCH_HEADER, type RemoteOutcome } from './remote-search.js'
export { addRemoteFacets, mergeRemoteHits, networkDocumentKey, remoteErrors, remoteHitCount, sortRemoteFacets, type FacetValueOrder } from './remote-results.js'
export { asSearchResponse, networkSearchRequest } from './as-federated.js'
export { SHARD_FIELD, ShardSet, documentOwnership, shardsOwnedBy } from './sharding.js'
export { fuseFilters } from './shard-routing.js'

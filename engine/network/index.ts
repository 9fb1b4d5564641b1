/**
 * The network: other instances this one knows (`/network`), and searching them (`federationOptions.remote`,
 * `useNetwork`). What is built and what is not is in the README, "Network".
 */
export { NetworkConfig } from './config.js'
export { emptyNetwork, NIL_VERSION, type Network, type NetworkPatch, type Remote, type RemotePatch, type Shard, type ShardPatch } from './types.js'
export { urlParseError } from './url.js'

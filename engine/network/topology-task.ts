/**
 * The shard move a network change causes (cluster mode, see README "Cluster", shard moves): a change of which
 * remotes own which shards (or of the shard names), or, while there are shards, of the `self` of the node that took
 * it. The move is a `networkTopologyChange` task registered at the change's own place in the log, on every node, in
 * the same write as the change (cluster/applier.ts): no node can apply the change without the move, whatever dies
 * after the log acknowledged it. Everything here depends on the log entry and the replicated network only, so every
 * node registers the same task.
 */
import type { NewTask } from '../tasks/queue.js'
import type { Network } from './types.js'

/** Owners by shard name. */
export type ShardOwners = Record<string, string[]>

export function shardOwners(network: Readonly<Network>): ShardOwners {
  return Object.fromEntries(Object.entries(network.shards).map(([name, shard]) => [name, [...shard.remotes]]))
}

/**
 * The owners before the change as the move must read them when the taking node's name changed from `from` to `to`:
 * the shards `to` owned were not that node's (it was not called so), those `from` owned were.
 */
function renamed(previous: ShardOwners, from: string | null, to: string | null): ShardOwners {
  // The node's former name stands for it; one no remote can be named (a reset `self` owns nothing after).
  const it = to ?? '\u0000renamed'
  return Object.fromEntries(Object.entries(previous).map(([shard, list]) => [shard, list.filter((r) => r !== to).map((r) => (r === from ? it : r))]))
}

/**
 * The move task for a change from `before` to `after` (the replicated network, the same on every node), where the
 * node that took the change was named `fromSelf` and is named `toSelf` after it; null when nothing moves.
 */
export function topologyTask(before: Readonly<Network>, after: Readonly<Network>, fromSelf: string | null, toSelf: string | null): NewTask | null {
  const previous = shardOwners(before)
  const shards = shardOwners(after)
  const selfChanged = fromSelf !== toSelf && Object.keys(shards).length > 0
  if (!selfChanged && JSON.stringify(previous) === JSON.stringify(shards)) return null
  // Meilisearch's details of an enqueued `networkTopologyChange`.
  const details = { movedDocuments: 0, message: 'processing tasks for previous network versions' }
  const moved = selfChanged ? renamed(previous, fromSelf, toSelf) : previous
  return { type: 'networkTopologyChange', indexUid: null, details, operation: { type: 'networkTopologyChange', previous: moved, shards } }
}

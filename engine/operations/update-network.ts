/**
 * `PATCH /network`: the change is applied (through the log in cluster mode, engine/network/config.ts) and answered
 * with the network. In cluster mode, a change of the shards' owners (or of the names of the shards), or of this
 * node's `self` while there are shards, is followed by a `networkTopologyChange` task, registered through the log
 * after the change, with which every node moves the documents of the shards it lost or gained
 * (scheduler/topology-change.ts).
 */
import type { Engine } from '../engine.js'
import type { Network, NetworkPatch } from '../network/index.js'
import { enqueue } from './enqueue.js'

function owners(network: Readonly<Network>): Record<string, string[]> {
  return Object.fromEntries(Object.entries(network.shards).map(([name, shard]) => [name, [...shard.remotes]]))
}

/**
 * The owners before the change as the move must read them when this node's name changed from `from` to `to`: the
 * shards `to` owned were not this node's (it was not called so), those `from` owned were.
 */
function renamed(previous: Record<string, string[]>, from: string | null, to: string | null): Record<string, string[]> {
  // The node's former name stands for it; one no remote can be named (a reset `self` owns nothing after).
  const it = to ?? '\u0000renamed'
  return Object.fromEntries(Object.entries(previous).map(([shard, list]) => [shard, list.filter((r) => r !== to).map((r) => (r === from ? it : r))]))
}

export async function updateNetwork(engine: Engine, patch: NetworkPatch): Promise<Network> {
  const before = engine.network.current
  const [previousSelf, previous] = [before.self, owners(before)]
  const network = await engine.network.update(patch)
  const shards = owners(network)
  const selfChanged = previousSelf !== network.self && Object.keys(shards).length > 0
  if (engine.network.sharding && (selfChanged || JSON.stringify(previous) !== JSON.stringify(shards))) {
    // Meilisearch's details of an enqueued `networkTopologyChange`.
    const details = { movedDocuments: 0, message: 'processing tasks for previous network versions' }
    const moved = selfChanged ? renamed(previous, previousSelf, network.self) : previous
    await enqueue(engine, { type: 'networkTopologyChange', indexUid: null, details, operation: { type: 'networkTopologyChange', previous: moved, shards } })
  }
  return network
}

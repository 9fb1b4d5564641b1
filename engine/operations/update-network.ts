/**
 * `PATCH /network`: the change is applied (through the log in cluster mode, engine/network/config.ts) and answered
 * with the network. In cluster mode, a change of the shards' owners is followed by a `networkTopologyChange` task,
 * registered through the log after the change, with which every node moves the documents of the shards it lost or
 * gained (scheduler/topology-change.ts).
 */
import type { Engine } from '../engine.js'
import type { Network, NetworkPatch } from '../network/index.js'
import { enqueue } from './enqueue.js'

function owners(network: Readonly<Network>): Record<string, string[]> {
  return Object.fromEntries(Object.entries(network.shards).map(([name, shard]) => [name, [...shard.remotes]]))
}

export async function updateNetwork(engine: Engine, patch: NetworkPatch): Promise<Network> {
  const previous = owners(engine.network.current)
  const network = await engine.network.update(patch)
  const shards = owners(network)
  if (engine.network.sharding && JSON.stringify(previous) !== JSON.stringify(shards)) {
    // Meilisearch's details of an enqueued `networkTopologyChange`.
    const details = { movedDocuments: 0, message: 'processing tasks for previous network versions' }
    await enqueue(engine, { type: 'networkTopologyChange', indexUid: null, details, operation: { type: 'networkTopologyChange', previous, shards } })
  }
  return network
}

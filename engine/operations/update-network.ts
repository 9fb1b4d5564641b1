/**
 * `PATCH /network`: the change is applied (through the log in cluster mode, engine/network/config.ts) and answered
 * with the network. In cluster mode, a change of the shards' owners (or of the names of the shards), or of this
 * node's `self` while there are shards, also registers a `networkTopologyChange` task at the change's own place in
 * the log, on every node (network/topology-task.ts), with which every node moves the documents of the shards it
 * lost or gained (scheduler/topology-change.ts).
 */
import type { Engine } from '../engine.js'
import type { Network, NetworkPatch } from '../network/index.js'

export async function updateNetwork(engine: Engine, patch: NetworkPatch): Promise<Network> {
  const network = await engine.network.update(patch)
  // Test hook: the answer waits here, after the change is in the log and applied, so that a test can kill the node.
  await engine.networkAnswerHeld?.()
  return network
}

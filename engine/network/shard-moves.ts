/**
 * What a shard move (a change of the shards or their owners, scheduler/topology-change.ts) asks of one node: which
 * documents it keeps, and which it fetches from whom. A document's shard before the move (`p`, by the previous shard
 * names) and after it (`s`) may differ when the names changed (rendezvous hashing moves documents to a new shard).
 *
 * - A node keeps a document when it owns `s`. It also keeps one whose new owners did not hold it before, when no
 *   node owned `p` before and owns `s` after (no "continuous" holder): those owners fetch it from a former owner,
 *   which must therefore still have it whenever they ask. The copies kept so are left over (a later move may drop
 *   them); `useNetwork` never returns them (its `_shard` filters).
 * - For each shard `s` it owns, and each former shard `p` it did not own, a node fetches `_shard = s` from a node
 *   holding `p`'s documents: a continuous holder of (p, s) when there is one, else a former owner of `p`. Only the
 *   fetched documents whose former shard is `p` are taken (a donor's left-over copies of other shards may be stale).
 * - Without shards before, every node held every document: nothing is fetched.
 */
import { ShardSet } from './sharding.js'
import type { Network } from './types.js'

export interface ShardFetch {
  /** The shard (new names) to ask for. */
  shard: string
  /** The shard (previous names) whose documents are taken from the answer. */
  from: string
  /** Who to ask, in turn. */
  donors: string[]
}

export interface MovePlan {
  keeps(id: string): boolean
  fetches: ShardFetch[]
  /** The previous shard of a document (to take only `from`'s documents from a fetch). */
  previousShardOf(id: string): string | null
}

export function planMove(network: Readonly<Network>, previous: Readonly<Record<string, readonly string[]>>): MovePlan {
  const self = network.self
  const next = new ShardSet(Object.keys(network.shards))
  const before = new ShardSet(Object.keys(previous))
  const ownersNow = (s: string) => network.shards[s]?.remotes ?? []
  const ownersBefore = (p: string) => (Object.hasOwn(previous, p) ? previous[p]! : [])
  const continuous = (p: string, s: string) => ownersBefore(p).filter((r) => ownersNow(s).includes(r))
  const everything = before.names.length === 0
  const owned = new Set(next.names.filter((s) => self !== null && ownersNow(s).includes(self)))

  const keeps = (id: string): boolean => {
    const s = next.shardOf(id)!
    if (owned.has(s)) return true
    if (everything) return false
    return continuous(before.shardOf(id)!, s).length === 0
  }

  const fetches: ShardFetch[] = []
  if (!everything) {
    const known = (r: string) => r !== self && Object.hasOwn(network.remotes, r)
    for (const s of owned) {
      for (const p of before.names) {
        if (self !== null && ownersBefore(p).includes(self)) continue
        // Rendezvous hashing moves a document between two shards only when one of them is new or gone.
        if (p !== s && Object.hasOwn(network.shards, p) && Object.hasOwn(previous, s)) continue
        const holders = continuous(p, s).filter(known)
        fetches.push({ shard: s, from: p, donors: holders.length > 0 ? holders : ownersBefore(p).filter(known) })
      }
    }
  }
  return { keeps, fetches, previousShardOf: (id) => before.shardOf(id) }
}

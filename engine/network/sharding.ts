/**
 * Sharding (Meilisearch's replicated sharding): the network's shards split each index's documents by primary key,
 * and the remotes owning a shard each keep its documents (several owners = replicas).
 *
 * A document's shard is chosen by rendezvous hashing, as Meilisearch does (`milli/src/sharding`: the shard whose
 * hash of (shard name, document id) is highest): every node computes the same shard from the id and the shard names
 * alone, across restarts, and adding or removing a shard moves only the documents that go to or come from it.
 * Meilisearch hashes with XXH3-64 of Rust's `Hash` encoding; Tessera hashes with MurmurHash3 (x86, 32 bits) of the
 * id's UTF-8 bytes, seeded with the FNV-1a (32 bits) of the shard name's UTF-8 bytes, ties going to the smaller name
 * in byte order. So a Tessera and a Meilisearch instance would not split documents alike (they do not share a
 * cluster anyway).
 */
import { compareNames } from './merge.js'
import type { Network } from './types.js'

/** The reserved attribute naming a document's shard in filters (`_shard = s1`, `_shard IN [s1, s2]`). */
export const SHARD_FIELD = '_shard'

export function fnv1a(bytes: Uint8Array): number {
  let h = 0x811c9dc5
  for (const b of bytes) h = Math.imul(h ^ b, 0x01000193)
  return h >>> 0
}

export function murmur3(bytes: Uint8Array, seed: number): number {
  let h = seed >>> 0
  const tail = bytes.length & ~3
  for (let i = 0; i < tail; i += 4) {
    let k = bytes[i]! | (bytes[i + 1]! << 8) | (bytes[i + 2]! << 16) | (bytes[i + 3]! << 24)
    k = Math.imul(k, 0xcc9e2d51)
    k = (k << 15) | (k >>> 17)
    k = Math.imul(k, 0x1b873593)
    h ^= k
    h = (h << 13) | (h >>> 19)
    h = (Math.imul(h, 5) + 0xe6546b64) | 0
  }
  const rest = bytes.length & 3
  if (rest > 0) {
    let k = 0
    for (let i = rest - 1; i >= 0; i--) k = (k << 8) | bytes[tail + i]!
    k = Math.imul(k, 0xcc9e2d51)
    k = (k << 15) | (k >>> 17)
    k = Math.imul(k, 0x1b873593)
    h ^= k
  }
  h ^= bytes.length
  h ^= h >>> 16
  h = Math.imul(h, 0x85ebca6b)
  h ^= h >>> 13
  h = Math.imul(h, 0xc2b2ae35)
  h ^= h >>> 16
  return h >>> 0
}

/** A set of shard names, with what choosing among them needs computed once. */
export class ShardSet {
  /** Names in byte order (ties of the hash go to the first). */
  readonly names: readonly string[]
  private readonly seeds: number[]

  constructor(names: Iterable<string>) {
    this.names = [...new Set(names)].sort(compareNames)
    this.seeds = this.names.map((name) => fnv1a(Buffer.from(name, 'utf8')))
  }

  /** The shard of the document whose primary key value is `id` (`1` and `"1"` alike); null without shards. */
  shardOf(id: string | number): string | null {
    const bytes = Buffer.from(String(id), 'utf8')
    let best = -1
    let bestHash = -1
    for (let i = 0; i < this.names.length; i++) {
      const h = murmur3(bytes, this.seeds[i]!)
      if (h > bestHash) { best = i; bestHash = h }
    }
    return best === -1 ? null : this.names[best]!
  }
}

/** The shards `remote` owns in `network`. */
export function shardsOwnedBy(network: Readonly<Network>, remote: string | null): Set<string> {
  const owned = new Set<string>()
  if (remote === null) return owned
  for (const [name, shard] of Object.entries(network.shards)) if (shard.remotes.includes(remote)) owned.add(name)
  return owned
}

/**
 * Which documents this node keeps when it applies an addition: those of the shards its `self` owns, or every
 * document (null) when the network has no shards. Only cluster mode applies it (see README, "Cluster").
 */
export function documentOwnership(network: Readonly<Network>): ((id: string) => boolean) | null {
  if (Object.keys(network.shards).length === 0) return null
  const shards = new ShardSet(Object.keys(network.shards))
  const owned = shardsOwnedBy(network, network.self)
  return (id) => owned.has(shards.shardOf(id)!)
}

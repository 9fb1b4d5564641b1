/**
 * `useNetwork` over a sharded network: every shard is searched exactly once, on one of its owners, each owner's
 * query filtered with `_shard IN [the shards it answers for]`, so every document comes back once (Meilisearch's
 * Enterprise Edition: `partition_shards`, one owner per shard picked at random, `_shard = name` per query).
 *
 * Tessera picks, per shard: this instance when it owns the shard (no hop), else an owner not seen failing in the
 * last few seconds, at random among them (load spreads over replicas). When an owner fails during the search, its
 * shards are asked again of another owner (`reassign`), so one replica down costs no documents.
 */
import type { JsonObject } from '../json/value.js'
import type { Network } from './types.js'
import { SHARD_FIELD } from './sharding.js'

/** How long a remote that failed is passed over when another owner of its shards can answer. */
const DOWN_MS = 5_000
const downUntil = new Map<string, number>()

/** Remember that the remote at `url` failed (its shards go to other owners for a while). */
export function markDown(url: string): void {
  downUntil.set(url, Date.now() + DOWN_MS)
}

function isDown(url: string): boolean {
  const until = downUntil.get(url)
  if (until === undefined) return false
  if (until > Date.now()) return true
  downUntil.delete(url)
  return false
}

/** Whether `useNetwork` partitions by shard: the network has shards. */
export function isSharded(network: Readonly<Network>): boolean {
  return Object.keys(network.shards).length > 0
}

/**
 * The owner answering for each shard, as remote name → shards (this instance under its own name). Owners in
 * `excluded` are not picked; a shard with no owner left is missing from the result.
 */
export function assignShards(network: Readonly<Network>, excluded: ReadonlySet<string> = new Set()): Map<string, string[]> {
  const byRemote = new Map<string, string[]>()
  for (const [shard, { remotes }] of Object.entries(network.shards)) {
    const owners = remotes.filter((r) => !excluded.has(r) && (r === network.self || Object.hasOwn(network.remotes, r)))
    if (owners.length === 0) continue
    let owner: string
    if (network.self !== null && owners.includes(network.self)) owner = network.self
    else {
      const live = owners.filter((r) => !isDown(network.remotes[r]!.url))
      const pool = live.length > 0 ? live : owners
      owner = pool[Math.floor(Math.random() * pool.length)]!
    }
    const list = byRemote.get(owner) ?? []
    list.push(shard)
    byRemote.set(owner, list)
  }
  return byRemote
}

/** `_shard IN ["s1", "s2"]`, names quoted and escaped for the filter syntax. */
export function shardFilter(shards: readonly string[]): string {
  return `${SHARD_FIELD} IN [${shards.map((s) => `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`).join(', ')}]`
}

/** A query's filter and `extra`, both applying (Meilisearch's `fuse_filters`: an array's elements are ANDed). */
export function fuseFilters(filter: unknown, extra: string): unknown {
  if (filter === null || filter === undefined) return extra
  if (Array.isArray(filter)) return [...filter, extra]
  return [filter, extra]
}

/** One shard query sent to a remote: what is needed to ask another owner instead. */
export interface ShardQuery {
  /** The query body without its `_shard` filter (JSON, as sent to remotes). */
  body: JsonObject
  shards: string[]
}

/** `body` restricted to `shards`. */
export function restrictedBody(body: JsonObject, shards: readonly string[]): JsonObject {
  return { ...body, filter: fuseFilters(body.filter, shardFilter(shards)) as JsonObject[string] }
}

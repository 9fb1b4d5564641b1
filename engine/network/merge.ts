/**
 * `PATCH /network` applied to the stored network, as Meilisearch merges it (`routes/network/mod.rs`,
 * `merge_networks`, and the Community Edition's `patch_network`). Pure: the caller persists the result.
 *
 * - `self` and `leader`: a string sets, `null` resets, absent keeps.
 * - `remotes`: `null` removes them all; otherwise each named remote is created (its `url` is required), updated
 *   field by field (its `url` cannot be reset), or removed (`null`), and a removed remote leaves every shard.
 * - `shards`: `null` removes them all; otherwise each named shard is created, updated (`remotes` replaces the
 *   owners, then `addRemotes` adds, then `removeRemotes` removes) or removed (`null`). Shards left without an
 *   owner are dropped.
 * - Every change renews `version` (a UUID v7).
 * - The Community Edition refuses to set `leader` (`requires_enterprise_edition`, 451) and the reserved field
 *   `previousRemotes`; Tessera is the Community Edition here (see README, "Network").
 */
import { TesseraError } from '../errors/index.js'
import { uuidV7 } from './uuid.js'
import { urlParseError } from './url.js'
import type { Network, NetworkPatch, Remote, RemotePatch, Shard, ShardPatch } from './types.js'

/** Rust's `BTreeMap<String, _>` order: byte-wise on UTF-8. */
export function compareNames(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'))
}

function sortedRecord<T>(entries: Iterable<[string, T]>): Record<string, T> {
  return Object.fromEntries([...entries].sort(([a], [b]) => compareNames(a, b)))
}

/** The checks the Community Edition makes before merging. */
export function checkCommunityEdition(patch: NetworkPatch): void {
  if (typeof patch.leader === 'string') {
    throw new TesseraError('requires_enterprise_edition', 'Meilisearch Enterprise Edition is required to set `network.leader`')
  }
  // GUESSED: the message of `MeilisearchHttpError::UnexpectedNetworkPreviousRemotes` (the code's documentation text).
  if (patch.previousRemotes) throw new TesseraError('unexpected_network_previous_remotes', 'The reserved field `previousRemotes` was used. Remove this field.')
}

function checkedUrl(name: string, url: string): string {
  const error = urlParseError(url)
  if (error !== null) throw new TesseraError('invalid_network_url', `Invalid \`.remotes.${name}.url\` (\`${url}\`): ${error}`)
  return url
}

function pick(next: string | null | undefined, old: string | null): string | null {
  return next === undefined ? old : next
}

function updatedRemote(name: string, old: Remote, patch: RemotePatch): Remote {
  if (patch.url === null) throw new TesseraError('invalid_network_url', `Field \`.remotes.${name}.url\` cannot be set to \`null\``)
  return {
    url: patch.url === undefined ? old.url : checkedUrl(name, patch.url),
    searchApiKey: pick(patch.searchApiKey, old.searchApiKey),
    writeApiKey: pick(patch.writeApiKey, old.writeApiKey),
  }
}

function newRemote(name: string, patch: RemotePatch): Remote {
  if (patch.url === undefined || patch.url === null) throw new TesseraError('missing_network_url', `Missing field \`.remotes.${name}.url\``)
  return { url: checkedUrl(name, patch.url), searchApiKey: patch.searchApiKey ?? null, writeApiKey: patch.writeApiKey ?? null }
}

function updatedShard(old: readonly string[], patch: ShardPatch): Shard {
  const owners = new Set(patch.remotes ?? old)
  for (const name of patch.addRemotes ?? []) owners.add(name)
  for (const name of patch.removeRemotes ?? []) owners.delete(name)
  return { remotes: [...owners].sort(compareNames) }
}

/** The network after `patch` (already checked for the edition), with a new version. */
export function mergeNetwork(old: Network, patch: NetworkPatch, version = uuidV7()): Network {
  const self = pick(patch.self, old.self)
  // Meilisearch refuses changes on a network whose leader is not `self`; the Community Edition never stores a
  // leader (`checkCommunityEdition`), so that check cannot fire here and is left out.
  const leader = pick(patch.leader, old.leader)

  const shards = new Map<string, Shard>()
  if (patch.shards !== null) for (const [name, shard] of Object.entries(old.shards)) shards.set(name, shard)
  for (const [name, shardPatch] of Object.entries(patch.shards ?? {})) {
    if (shardPatch === null) shards.delete(name)
    else shards.set(name, updatedShard(shards.get(name)?.remotes ?? [], shardPatch))
  }

  const remotes = new Map<string, Remote>()
  if (patch.remotes !== null) for (const [name, remote] of Object.entries(old.remotes)) remotes.set(name, remote)
  // Merged in name order, as Meilisearch walks its two BTreeMaps, so the first error reported is the same.
  const remotePatches = Object.entries(patch.remotes ?? {}).sort(([a], [b]) => compareNames(a, b))
  for (const [name, remotePatch] of remotePatches) {
    const known = remotes.get(name)
    if (remotePatch === null) {
      remotes.delete(name)
      for (const [shardName, shard] of shards) shards.set(shardName, { remotes: shard.remotes.filter((r) => r !== name) })
    } else {
      remotes.set(name, known === undefined ? newRemote(name, remotePatch) : updatedRemote(name, known, remotePatch))
    }
  }
  for (const [name, shard] of shards) if (shard.remotes.length === 0) shards.delete(name)

  return { self, remotes: sortedRecord(remotes), shards: sortedRecord(shards), leader, version }
}

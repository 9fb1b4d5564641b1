/**
 * The network as Meilisearch 1.x stores and shows it (`crates/meilisearch-types/src/network.rs`): this instance's
 * name (`self`), the remotes it knows (name → URL and keys), the shards and the remotes owning each, the leader,
 * and a version (a UUID v7 renewed by every change). Tessera keeps it in this shape so `GET /network` answers
 * what Meilisearch answers, field for field and in the same order.
 */

/** One remote instance of the network. */
export interface Remote {
  url: string
  /** The key sent as `Authorization: Bearer` when this instance searches the remote. */
  searchApiKey: string | null
  /** The key a leader would use to forward writes (kept and shown; Tessera does not forward writes yet). */
  writeApiKey: string | null
}

/** A shard: the remotes that own its documents (several remotes = replicas). */
export interface Shard {
  /** Remote names, sorted (Meilisearch keeps them in a `BTreeSet`). */
  remotes: string[]
}

export interface Network {
  self: string | null
  /** By name, in name order (a `BTreeMap`). */
  remotes: Record<string, Remote>
  /** By name, in name order. */
  shards: Record<string, Shard>
  leader: string | null
  version: string
}

/** The version of a network that was never changed: the nil UUID, as Meilisearch's `Uuid::default()`. */
export const NIL_VERSION = '00000000-0000-0000-0000-000000000000'

export function emptyNetwork(): Network {
  return { self: null, remotes: {}, shards: {}, leader: null, version: NIL_VERSION }
}

/**
 * A field of a PATCH body: `undefined` leaves the current value (deserr's `Setting::NotSet`), `null` resets it
 * (`Setting::Reset`), anything else sets it.
 */
export type Setting<T> = T | null | undefined

export interface RemotePatch {
  url: Setting<string>
  searchApiKey: Setting<string>
  writeApiKey: Setting<string>
}

export interface ShardPatch {
  /** Replaces the owners when present (applied first). */
  remotes: string[] | null
  /** Added to the owners (applied second). */
  addRemotes: string[] | null
  /** Removed from the owners (applied last). */
  removeRemotes: string[] | null
}

/** A validated `PATCH /network` body; a `null` entry of `remotes` or `shards` removes that remote or shard. */
export interface NetworkPatch {
  remotes: Setting<Record<string, RemotePatch | null>>
  shards: Setting<Record<string, ShardPatch | null>>
  self: Setting<string>
  leader: Setting<string>
  /** Reserved for messages between instances; present means the body used it (refused by the Community Edition). */
  previousRemotes: boolean
  previousShards: boolean
}

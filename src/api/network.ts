/**
 * `PATCH /network` bodies, validated as deserr validates Meilisearch's `Network` (`routes/network/mod.rs`): unknown
 * fields refused, entries checked in the order the body lists them (the first error wins), `null` meaning "reset".
 * Each field has its own error code (`invalid_network_self`, `invalid_network_remotes`, ...); inside a remote or a
 * shard, an unknown field takes the code of the enclosing map.
 */
import type { ErrorCode } from '../../engine/errors/index.js'
import type { NetworkPatch, RemotePatch, ShardPatch } from '../../engine/network/index.js'
import { at, expectString, expectStringList, invalidType, unknownField, type Path } from './deserr.js'

/** The fields of `Network`, in declaration order (the order deserr's "expected one of" lists). */
const NETWORK_FIELDS = ['remotes', 'shards', 'previousShards', 'self', 'leader', 'previousRemotes'] as const
const REMOTE_FIELDS = ['url', 'searchApiKey', 'writeApiKey'] as const
const SHARD_FIELDS = ['remotes', 'addRemotes', 'removeRemotes'] as const

/**
 * The entries of an object body, each key checked against `accepted` when it is reached (deserr walks the body in
 * order, so a bad value before an unknown key is the error reported).
 */
function* fieldsOf(value: unknown, path: Path, accepted: readonly string[], code: ErrorCode, unknownCode: ErrorCode): Generator<[string, unknown]> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw invalidType(code, path, 'an object', value)
  for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
    if (!accepted.includes(key)) throw unknownField(path, key, accepted, unknownCode)
    yield [key, v]
  }
}

/** A string, or `null` (reset). */
function nullableString(value: unknown, path: Path, code: ErrorCode): string | null {
  return value === null ? null : expectString(value, path, code)
}

function parseRemote(value: unknown, path: Path): RemotePatch {
  const remote: RemotePatch = { url: undefined, searchApiKey: undefined, writeApiKey: undefined }
  for (const [key, v] of fieldsOf(value, path, REMOTE_FIELDS, 'invalid_network_remotes', 'invalid_network_remotes')) {
    const p = at(path, key)
    if (key === 'url') remote.url = nullableString(v, p, 'invalid_network_url')
    else if (key === 'searchApiKey') remote.searchApiKey = nullableString(v, p, 'invalid_network_search_api_key')
    else remote.writeApiKey = nullableString(v, p, 'invalid_network_write_api_key')
  }
  return remote
}

function parseRemotes(value: unknown, path: Path): Record<string, RemotePatch | null> | null {
  if (value === null) return null
  if (value === undefined || typeof value !== 'object' || Array.isArray(value)) throw invalidType('invalid_network_remotes', path, 'an object', value)
  const out: Record<string, RemotePatch | null> = {}
  for (const [name, v] of Object.entries(value as Record<string, unknown>)) out[name] = v === null ? null : parseRemote(v, at(path, name))
  return out
}

function parseShard(value: unknown, path: Path): ShardPatch {
  const shard: ShardPatch = { remotes: null, addRemotes: null, removeRemotes: null }
  for (const [key, v] of fieldsOf(value, path, SHARD_FIELDS, 'invalid_network_shards', 'invalid_network_shards')) {
    // The owners' lists carry the remotes' error code, as in Meilisearch.
    const names = v === null ? null : [...new Set(expectStringList(v, at(path, key), 'invalid_network_remotes'))]
    shard[key as keyof ShardPatch] = names
  }
  return shard
}

function parseShards(value: unknown, path: Path): Record<string, ShardPatch | null> | null {
  if (value === null) return null
  if (value === undefined || typeof value !== 'object' || Array.isArray(value)) throw invalidType('invalid_network_shards', path, 'an object', value)
  const out: Record<string, ShardPatch | null> = {}
  for (const [name, v] of Object.entries(value as Record<string, unknown>)) out[name] = v === null ? null : parseShard(v, at(path, name))
  return out
}

export function parseNetworkPatch(body: unknown): NetworkPatch {
  const patch: NetworkPatch = { remotes: undefined, shards: undefined, self: undefined, leader: undefined, previousRemotes: false, previousShards: false }
  for (const [key, v] of fieldsOf(body, '', NETWORK_FIELDS, 'bad_request', 'bad_request')) {
    const p = at('', key)
    switch (key) {
      case 'remotes': patch.remotes = parseRemotes(v, p); break
      case 'shards': patch.shards = parseShards(v, p); break
      case 'previousShards': parseShards(v, p); patch.previousShards = true; break
      case 'self': patch.self = nullableString(v, p, 'invalid_network_self'); break
      case 'leader': patch.leader = nullableString(v, p, 'invalid_network_leader'); break
      case 'previousRemotes': parseRemotes(v, p); patch.previousRemotes = true; break
    }
  }
  return patch
}

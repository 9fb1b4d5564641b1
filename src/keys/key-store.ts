/**
 * The API keys: stored in RocksDB (`keys` column, one record per key), all held in memory for the per-request
 * checks. A key's value is derived from the master key (secret.ts) and never stored; a presented value is found
 * through the SHA-256 of the values (a map look-up that leaks nothing of them) and confirmed in constant time.
 *
 * When the store holds no key at all it is given Meilisearch's four default keys (`generate_default_keys` in
 * `meilisearch-auth/src/lib.rs`), created in the order chat, read-only admin, admin, search: listed newest
 * first, they read search, admin, read-only admin, chat, as Meilisearch lists them.
 */
import { TesseraError } from '../../engine/errors/index.js'
import { decode, encode, keys as storageKeys, type Store } from '../../engine/storage/index.js'
import { nowMicros } from '../../engine/tasks/time.js'
import { StateChanges, type StatePlan } from '../../engine/tasks/state-changes.js'
import { expandActions, type Action } from './actions.js'
import type { Expiry } from './expiry.js'
import { deriveKeyValue, sameDigest, secretDigest } from './secret.js'
import { newUuid, parseUuid } from './uuid.js'

type Micros = number

/** A key as stored. */
export interface ApiKey {
  uid: string
  name: string | null
  description: string | null
  actions: Action[]
  indexes: string[]
  expiresAt: Expiry | null
  createdAt: Micros
  updatedAt: Micros
}

/** A key as held in memory: with what its actions grant, expanded once. */
export interface LoadedKey extends ApiKey {
  granted: ReadonlySet<Action>
  /** `*` is among its index patterns. */
  allIndexes: boolean
}

export type NewKey = Pick<ApiKey, 'uid' | 'name' | 'description' | 'actions' | 'indexes' | 'expiresAt'>

const DEFAULT_KEYS: Omit<NewKey, 'uid' | 'expiresAt'>[] = [
  { name: 'Default Chat API Key', description: 'Use it to chat and search from the frontend', actions: ['chatCompletions', 'search'], indexes: ['*'] },
  { name: 'Default Read-Only Admin API Key', description: 'Use it to read information across the whole database. Caution! Do not expose this key on a public frontend', actions: ['*.get', 'keys.get'], indexes: ['*'] },
  { name: 'Default Admin API Key', description: 'Use it for anything that is not a search operation. Caution! Do not expose it on a public frontend', actions: ['*'], indexes: ['*'] },
  { name: 'Default Search API Key', description: 'Use it to search from the frontend', actions: ['search'], indexes: ['*'] },
]

export const apiKeyNotFound = (what: string) => new TesseraError('api_key_not_found', `API key \`${what}\` not found.`)

function loaded(key: ApiKey): LoadedKey {
  return { ...key, granted: expandActions(key.actions), allIndexes: key.indexes.includes('*') }
}

function record(key: LoadedKey): ApiKey {
  const { granted: _granted, allIndexes: _all, ...stored } = key
  return stored
}

export class KeyStore {
  private readonly byUid = new Map<string, LoadedKey>()
  /** hex SHA-256 of a key's value → its uid and that digest (only with a master key). */
  private readonly byValueDigest = new Map<string, { uid: string; digest: Buffer }>()
  /** SHA-256 of the master key, what a presented token's digest is compared with. */
  readonly masterDigest: Buffer | null

  private constructor(private readonly store: Store, readonly masterKey: string | null, private readonly changes: StateChanges) {
    this.masterDigest = masterKey === null ? null : secretDigest(masterKey)
  }

  /** `changes`: the engine's state changes (replicated in cluster mode); a fresh local one by default. */
  static async open(store: Store, masterKey: string | null, changes = new StateChanges(store)): Promise<KeyStore> {
    const keyStore = new KeyStore(store, masterKey, changes)
    for await (const [, value] of store.scan('keys')) keyStore.remember(loaded(decode<ApiKey>(value)))
    if (keyStore.byUid.size === 0) await keyStore.createDefaults()
    changes.register('keys', (body) => keyStore.plan(body as KeyChange))
    return keyStore
  }

  private async createDefaults(): Promise<void> {
    const created = DEFAULT_KEYS.map((k) => {
      const now = nowMicros()
      return loaded({ ...k, uid: newUuid(), expiresAt: null, createdAt: now, updatedAt: now })
    })
    await this.store.commit(created.map((k) => this.putOp(k)))
    for (const k of created) this.remember(k)
  }

  private putOp(key: LoadedKey) {
    return { column: 'keys' as const, key: storageKeys.utf8(key.uid), value: encode(record(key)) }
  }

  private remember(key: LoadedKey): void {
    this.byUid.set(key.uid, key)
    if (this.masterKey !== null) {
      const digest = secretDigest(this.valueOf(key.uid))
      this.byValueDigest.set(digest.toString('hex'), { uid: key.uid, digest })
    }
  }

  private forget(uid: string): void {
    this.byUid.delete(uid)
    if (this.masterKey !== null) this.byValueDigest.delete(secretDigest(this.valueOf(uid)).toString('hex'))
  }

  /** The key's value, derived from the master key; empty without one (as Meilisearch shows it). */
  valueOf(uid: string): string {
    return this.masterKey === null ? '' : deriveKeyValue(this.masterKey, uid)
  }

  /** Every key, newest first. */
  list(): LoadedKey[] {
    return [...this.byUid.values()].sort((a, b) => b.createdAt - a.createdAt)
  }

  get(uid: string): LoadedKey | undefined {
    return this.byUid.get(uid)
  }

  /**
   * The key whose value was presented; hex is read in any case, as Meilisearch decodes it. `digest` may pass the
   * presented value's SHA-256 when the caller has it already.
   */
  findByValue(presented: string, digest?: Buffer): LoadedKey | undefined {
    if (this.masterKey === null) return undefined
    const lower = /^[0-9A-Fa-f]+$/.test(presented) ? presented.toLowerCase() : presented
    const presentedDigest = lower === presented && digest !== undefined ? digest : secretDigest(lower)
    const entry = this.byValueDigest.get(presentedDigest.toString('hex'))
    // The look-up is keyed by a digest, which says nothing of the value; the match is confirmed in constant time.
    return entry !== undefined && sameDigest(presentedDigest, entry.digest) ? this.byUid.get(entry.uid) : undefined
  }

  /** A key named in a path: its uid (any UUID form) or its value. */
  resolve(uidOrKey: string): LoadedKey {
    const parsed = parseUuid(uidOrKey)
    if (parsed.ok) {
      const key = this.byUid.get(parsed.uid)
      if (!key) throw apiKeyNotFound(parsed.uid)
      return key
    }
    const key = this.findByValue(uidOrKey)
    if (!key) throw apiKeyNotFound(uidOrKey)
    return key
  }

  /**
   * Create, update (name and description) and delete go through the engine's state changes: applied here at once on
   * a single node, through the replicated log in cluster mode (every node then holds the created keys). Timestamps
   * are taken here and travel with the change, so every node shows the same.
   */
  async create(input: NewKey): Promise<LoadedKey> {
    return await this.changes.run('keys', { op: 'create', input, now: nowMicros() } satisfies KeyChange) as LoadedKey
  }

  /** PATCH: only the name and the description change; `undefined` leaves a field as it is. */
  async update(uid: string, patch: { name?: string | null; description?: string | null }): Promise<LoadedKey> {
    return await this.changes.run('keys', { op: 'update', uid, patch, now: nowMicros() } satisfies KeyChange) as LoadedKey
  }

  async delete(uid: string): Promise<void> {
    await this.changes.run('keys', { op: 'delete', uid } satisfies KeyChange)
  }

  private plan(change: KeyChange): StatePlan {
    switch (change.op) {
      case 'create': {
        const { input, now } = change
        if (this.byUid.has(input.uid)) throw new TesseraError('api_key_already_exists', `\`uid\` field value \`${input.uid}\` is already an existing API key.`)
        const key = loaded({ ...input, createdAt: now, updatedAt: now })
        return { ops: [this.putOp(key)], apply: () => { this.remember(key); return key } }
      }
      case 'update': {
        const { uid, patch, now } = change
        const before = this.byUid.get(uid)
        if (!before) throw apiKeyNotFound(uid)
        const after: LoadedKey = {
          ...before,
          // A field absent from the JSON body was `undefined`: it stays as it is.
          name: patch.name === undefined ? before.name : patch.name,
          description: patch.description === undefined ? before.description : patch.description,
          updatedAt: now,
        }
        return { ops: [this.putOp(after)], apply: () => { this.byUid.set(uid, after); return after } }
      }
      case 'delete': {
        if (!this.byUid.has(change.uid)) throw apiKeyNotFound(change.uid)
        return { ops: [{ column: 'keys', key: storageKeys.utf8(change.uid) }], apply: () => { this.forget(change.uid) } }
      }
    }
  }
}

/** A change of the keys as it travels (JSON). */
type KeyChange =
  | { op: 'create'; input: NewKey; now: Micros }
  | { op: 'update'; uid: string; patch: { name?: string | null; description?: string | null }; now: Micros }
  | { op: 'delete'; uid: string }

/**
 * Users in RocksDB's `auth` column family, through `Store` like everything else. Per collection:
 *
 *   U <slug> 0 <id>                  → the user record (msgpack)
 *   E <slug> 0 <email>               → id   (login, uniqueness)
 *   K <slug> 0 <apiKeyIndex>         → id   (API keys: the HMAC of the key, never the key)
 *   R <slug> 0 <resetPasswordToken>  → id
 *   V <slug> 0 <_verificationToken>  → id
 *
 * A record and its lookup keys change in one atomic, fsynced commit, and a change resolves only once it is on
 * disk: an operation that answered is never forgotten by a crash. Changes to one user run one at a time (see
 * KeyedMutex), so each is an atomic read-modify-write.
 */
import { Store, encode, decode, type WriteOp } from '../../../engine/storage/index.js'
import { KeyedMutex } from './mutex.js'
import type { UserRecord } from './user-record.js'

type LookupKind = 'E' | 'K' | 'R' | 'V'

const key = (kind: 'U' | LookupKind, slug: string, rest: string): Buffer => Buffer.from(`${kind}${slug}\0${rest}`, 'utf8')

/** The lookup keys a record should have. */
function lookups(record: UserRecord): [LookupKind, string][] {
  const out: [LookupKind, string][] = [['E', record.email]]
  if (typeof record.apiKeyIndex === 'string' && record.apiKeyIndex) out.push(['K', record.apiKeyIndex])
  if (typeof record.resetPasswordToken === 'string' && record.resetPasswordToken) out.push(['R', record.resetPasswordToken])
  if (typeof record._verificationToken === 'string' && record._verificationToken) out.push(['V', record._verificationToken])
  return out
}

export class UserStore {
  private readonly locks = new KeyedMutex()

  constructor(readonly store: Store) {}

  get(slug: string, id: string): UserRecord | null {
    const value = this.store.get('auth', key('U', slug, id))
    return value ? decode<UserRecord>(value) : null
  }

  private lookup(kind: LookupKind, slug: string, value: string): UserRecord | null {
    const id = this.store.get('auth', key(kind, slug, value))
    return id ? this.get(slug, id.toString('utf8')) : null
  }

  byEmail(slug: string, email: string): UserRecord | null {
    return this.lookup('E', slug, email)
  }

  byAPIKeyIndex(slug: string, index: string): UserRecord | null {
    return this.lookup('K', slug, index)
  }

  byResetToken(slug: string, token: string): UserRecord | null {
    return this.lookup('R', slug, token)
  }

  byVerificationToken(slug: string, token: string): UserRecord | null {
    return this.lookup('V', slug, token)
  }

  /** Every user of a collection, oldest first (ids sort by creation time). */
  async *all(slug: string, limit?: number): AsyncGenerator<UserRecord> {
    const prefix = key('U', slug, '')
    const end = Buffer.from(prefix)
    end[end.length - 1] = 1
    for await (const [, value] of this.store.scan('auth', { gte: prefix, lt: end, limit })) yield decode<UserRecord>(value)
  }

  async isEmpty(slug: string): Promise<boolean> {
    for await (const _ of this.all(slug, 1)) return false
    return true
  }

  /** Store a new user unless its email is taken; false when it is. */
  insert(slug: string, record: UserRecord): Promise<boolean> {
    return this.locks.run(`E${slug}\0${record.email}`, async () => {
      if (this.store.get('auth', key('E', slug, record.email))) return false
      await this.store.commit(this.writes(slug, null, record))
      return true
    })
  }

  /**
   * Change a user atomically: `change` gets the current record and returns the new one (or null to leave it as
   * it is); the result is on disk when the promise resolves. `claimEmail` names an email the change may move the
   * user to: it is locked too, and the change fails with `false` when another user already has it.
   */
  update(slug: string, id: string, change: (current: UserRecord) => UserRecord | null, claimEmail?: string): Promise<UserRecord | null | false> {
    const lockKeys = [`U${slug}\0${id}`]
    if (claimEmail !== undefined) lockKeys.push(`E${slug}\0${claimEmail}`)
    return this.locks.runAll(lockKeys, async () => {
      const current = this.get(slug, id)
      if (!current) return null
      const next = change(current)
      if (!next) return current
      if (next.email !== current.email) {
        const owner = this.store.get('auth', key('E', slug, next.email))
        if (owner && owner.toString('utf8') !== id) return false
      }
      await this.store.commit(this.writes(slug, current, next))
      return next
    })
  }

  /** Writes that replace `before` (or nothing) by `after`, lookup keys included. */
  private writes(slug: string, before: UserRecord | null, after: UserRecord): WriteOp[] {
    const ops: WriteOp[] = [{ column: 'auth', key: key('U', slug, after.id), value: encode(after) }]
    const wanted = new Set(lookups(after).map(([kind, value]) => `${kind}${value}`))
    for (const [kind, value] of before ? lookups(before) : []) {
      if (!wanted.has(`${kind}${value}`)) ops.push({ column: 'auth', key: key(kind, slug, value) })
    }
    const id = Buffer.from(after.id, 'utf8')
    for (const [kind, value] of lookups(after)) ops.push({ column: 'auth', key: key(kind, slug, value), value: id })
    return ops
  }
}

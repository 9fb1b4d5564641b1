/**
 * The workflow store's share of the database: the `workflows` column family of the engine's Store, the seq counter
 * that orders every listing, the secret that signs cursors, the locks of read-modify-write, and the personal
 * project new workflows belong to. Workflows, tags, projects and listings (workflows.ts, tags.ts, projects.ts,
 * listing.ts) all work through one WorkflowDb.
 */
import { randomBytes } from 'node:crypto'
import { decode, encode, type Store, type WriteOp } from '../../engine/storage/index.js'
import { layout, seqOf, type IndexRange } from './layout.js'
import { Locks } from './locks.js'
import { newId } from './ids.js'
import type { ProjectRecord } from './types.js'

const COLUMN = 'workflows'
const SECRET_BYTES = 32
/** The name n8n gives a personal project is its owner's; Tessera's one personal project has no owner to name. */
export const PERSONAL_PROJECT_NAME = 'Personal'

export class WorkflowDb {
  readonly locks = new Locks()
  /** The next seq to hand out, and the value last written to the database. */
  private nextSeq: number
  private storedSeq: number

  private constructor(
    readonly store: Store,
    /** HMAC key of cursors: per database, so a cursor means nothing to another database. */
    readonly secret: Buffer,
    nextSeq: number,
    readonly personalProjectId: string,
  ) {
    this.nextSeq = nextSeq
    this.storedSeq = nextSeq
  }

  static async open(store: Store): Promise<WorkflowDb> {
    const read = (name: string) => store.get(COLUMN, layout.meta(name))
    const setup: WriteOp[] = []
    let secret = read('secret')
    if (!secret) {
      secret = randomBytes(SECRET_BYTES)
      setup.push({ column: COLUMN, key: layout.meta('secret'), value: secret })
    }
    // The stored counter is written with every commit that took a seq; the indexes' last entries guard against a
    // counter written by an older version of this code (or none at all).
    let nextSeq = Math.max(1, Number(read('seq')?.readBigUInt64BE() ?? 0n))
    for (const index of [layout.allWorkflows(), layout.allTags(), layout.allProjects()]) {
      const last = await lastSeq(store, index)
      if (last !== null) nextSeq = Math.max(nextSeq, last + 1)
    }
    let personal = read('personalProject')?.toString('utf8')
    if (!personal) {
      personal = newId()
      const now = new Date().toISOString()
      const project: ProjectRecord = { id: personal, seq: nextSeq++, name: PERSONAL_PROJECT_NAME, type: 'personal', createdAt: now, updatedAt: now }
      setup.push(
        { column: COLUMN, key: layout.project(personal), value: encode(project) },
        { column: COLUMN, key: layout.entry(layout.allProjects(), project.seq), value: Buffer.from(personal) },
        { column: COLUMN, key: layout.meta('personalProject'), value: Buffer.from(personal) },
      )
    }
    const db = new WorkflowDb(store, secret, nextSeq, personal)
    db.storedSeq = -1
    await db.commit(setup)
    return db
  }

  /** A new seq: larger than every seq handed out before, in this process or any earlier one on this database. */
  takeSeq(): number {
    return this.nextSeq++
  }

  get<T>(key: Buffer): T | undefined {
    const value = this.store.get(COLUMN, key)
    return value ? decode<T>(value) : undefined
  }

  getMany<T>(keys: Buffer[]): (T | undefined)[] {
    return this.store.getMany(COLUMN, keys).map((value) => (value ? decode<T>(value) : undefined))
  }

  put(key: Buffer, value: unknown): WriteOp {
    return { column: COLUMN, key, value: value instanceof Buffer ? value : encode(value) }
  }

  del(key: Buffer): WriteOp {
    return { column: COLUMN, key }
  }

  /**
   * Apply `ops` atomically; resolves once they are durable. The counter goes along whenever seqs were taken since
   * the last commit: commits are applied in the order this is called, so the stored value only ever grows.
   */
  commit(ops: WriteOp[]): Promise<void> {
    if (this.nextSeq !== this.storedSeq) {
      const value = Buffer.alloc(8)
      value.writeBigUInt64BE(BigInt(this.nextSeq))
      ops = [...ops, { column: COLUMN, key: layout.meta('seq'), value }]
      this.storedSeq = this.nextSeq
    }
    return this.store.commit(ops)
  }

  /** Entries of an index range in key order, from `gte` on, at most `limit` of them. */
  async entries(index: IndexRange, fromSeq: number, limit: number): Promise<{ seq: number; id: string }[]> {
    const out: { seq: number; id: string }[] = []
    const gte = layout.entry(index, fromSeq)
    const lt = layout.entry(index, 2 ** 53)
    for await (const [key, value] of this.store.scan(COLUMN, { gte, lt, limit })) out.push({ seq: seqOf(key), id: value.toString('utf8') })
    return out
  }
}

async function lastSeq(store: Store, index: IndexRange): Promise<number | null> {
  const lt = layout.entry(index, 2 ** 53)
  for await (const [key] of store.scan(COLUMN, { gte: index.prefix, lt, reverse: true, limit: 1 })) return seqOf(key)
  return null
}

/**
 * An ISO-8601 timestamp for a write of a record last written at `previous`: now, or a millisecond after
 * `previous` when the clock has not moved past it, so every change moves `updatedAt` forward (n8n's tests check
 * that an update's `updatedAt` is greater than the one before).
 */
export function stamp(previous?: string): string {
  const now = Date.now()
  const after = previous ? Date.parse(previous) + 1 : -Infinity
  return new Date(Math.max(now, after)).toISOString()
}

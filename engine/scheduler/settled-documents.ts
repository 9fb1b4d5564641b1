/**
 * Documents a shard move took from a donor that was already past the move (network/shard-transfer.ts): the donor's
 * copies carry the effects of the index's tasks up to the donor's applied position (`through`), so this node leaves
 * those documents as they are when it applies those tasks itself: each task takes effect once on them (an edit by
 * function does not run twice). Batches of the index stop at a `through` (selection.ts), so a batch is either wholly
 * at or below it or wholly past it.
 *
 * Kept in the `meta` column under one key, written in the move's own batch (scheduler/topology-change.ts); records
 * whose tasks are all applied are dropped by the next move (every task before a move is applied when it runs).
 */
import { decode, encode, keys, type Store, type WriteOp } from '../storage/index.js'

const STORE_KEY = keys.utf8('settledDocuments')

export interface SettledRecord {
  indexUid: string
  /** The donor's applied position for the index: its last finished task of the index. */
  through: number
  /** The primary key values (as strings) taken from the donor. */
  ids: string[]
}

interface Held { indexUid: string; through: number; ids: Set<string> }

export class SettledDocuments {
  private records: Held[]

  constructor(store: Store) {
    const raw = store.get('meta', STORE_KEY)
    const stored = raw ? readRecords(raw) : []
    this.records = stored.map((r) => ({ indexUid: r.indexUid, through: r.through, ids: new Set(r.ids) }))
  }

  /**
   * The write adding `added` and dropping the records passed at task `now` (a move: every task before it is
   * applied), and the switch to make once it is durable.
   */
  plan(added: SettledRecord[], now: number): { ops: WriteOp[]; publish: () => void } {
    const kept = this.records.filter((r) => r.through > now)
    const next = [...kept, ...added.map((r) => ({ indexUid: r.indexUid, through: r.through, ids: new Set(r.ids) }))]
    if (next.length === 0 && this.records.length === 0) return { ops: [], publish: () => {} }
    const value = encode(next.map((r): SettledRecord => ({ indexUid: r.indexUid, through: r.through, ids: [...r.ids] })))
    return {
      ops: [{ column: 'meta', key: STORE_KEY, value }],
      publish: () => { this.records = next },
    }
  }

  /** The first `through` at or past task `from` for the index (its batch must stop there), or null. */
  boundary(indexUid: string, from: number): number | null {
    let stop: number | null = null
    for (const r of this.records) if (r.indexUid === indexUid && r.through >= from && (stop === null || r.through < stop)) stop = r.through
    return stop
  }

  /** For a batch of the index's tasks up to task `last`: whether a document is to be left as it is; null: none is. */
  untouched(indexUid: string, last: number): ((id: string) => boolean) | null {
    const sets = this.records.filter((r) => r.indexUid === indexUid && r.through >= last).map((r) => r.ids)
    if (sets.length === 0) return null
    return (id) => sets.some((s) => s.has(id))
  }
}

/**
 * The stored records: the storage's codec, or JSON text as the first builds wrote them (a JSON array starts with
 * `[`, which msgpack reads as the number 91, never as an array, so the two cannot be confused).
 */
function readRecords(raw: Uint8Array): SettledRecord[] {
  if (raw[0] === 0x5b) return JSON.parse(Buffer.from(raw).toString('utf8')) as SettledRecord[]
  return decode<SettledRecord[]>(raw)
}

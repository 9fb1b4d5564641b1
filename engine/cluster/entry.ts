/**
 * One entry of the replicated task log: a task as its registering node built it, the moment it was enqueued (so
 * every node shows the same `enqueuedAt`), the writes that must be durable with it (a small payload's database
 * copy), and for a large payload the name of its object in the payloads bucket.
 *
 * The task itself travels as JSON text: its details and settings carry user-named keys, which must round-trip
 * exactly (msgpackr renames `__proto__`); the rest is msgpack, so payload bytes are not re-encoded.
 */
import { pack, unpack } from 'msgpackr'
import { COLUMNS, type Column, type WriteOp } from '../storage/index.js'
import type { NewTask } from '../tasks/queue.js'
import type { Micros } from '../tasks/types.js'
import type { StateKind } from '../tasks/state-changes.js'

/**
 * Version 1: a task. Version 2: a change of instance state (tasks/state-changes.ts). Version 3: an opening
 * (openings.ts). Versions 2 and 3 take a task uid no task has (but a change causing a task, see applier.ts).
 */
const VERSION = 1
const CHANGE_VERSION = 2
const OPENING_VERSION = 3

/** Tasks up to `through` may be batched (openings.ts). */
export interface OpeningEntry {
  opening: number
}

export function encodeOpening(through: number): Uint8Array {
  return pack({ v: OPENING_VERSION, through })
}

export interface LogEntry {
  task: NewTask
  enqueuedAt: Micros
  ops: WriteOp[]
  /** A large payload, stored in the bucket as `name`, written to the task's payload file before it registers. */
  object: { name: string; bytes: number } | null
}

interface Wire {
  v: number
  task: string
  enqueuedAt: Micros
  ops: [Column, Uint8Array, Uint8Array | null][]
  object: { name: string; bytes: number } | null
}

export function encodeEntry(entry: LogEntry): Uint8Array {
  const wire: Wire = {
    v: VERSION,
    task: JSON.stringify(entry.task),
    enqueuedAt: entry.enqueuedAt,
    ops: entry.ops.map((op) => [op.column, op.key, op.value ?? null]),
    object: entry.object,
  }
  return pack(wire)
}

/**
 * A change of the network, the features or the API keys, the node that took it (its `origin` id), and when (the
 * `enqueuedAt` of a task the change causes, the same on every node; absent in entries of older versions).
 */
export interface ChangeEntry {
  change: { kind: StateKind; body: unknown }
  origin: string
  enqueuedAt?: Micros
}

interface ChangeWire {
  v: number
  change: string
  origin: string
  at?: Micros
}

export function encodeChange(entry: ChangeEntry): Uint8Array {
  // JSON text, as a task: user-chosen names (remotes, shards) must round-trip exactly.
  const wire: ChangeWire = { v: CHANGE_VERSION, change: JSON.stringify(entry.change), origin: entry.origin }
  if (entry.enqueuedAt !== undefined) wire.at = entry.enqueuedAt
  return pack(wire)
}

/** Throws on an entry this version cannot read (written by a newer Tessera, or not by Tessera at all). */
export function decodeEntry(bytes: Uint8Array): LogEntry | ChangeEntry | OpeningEntry {
  const wire = unpack(bytes) as Wire
  if ((wire as unknown as { v: number })?.v === OPENING_VERSION) {
    const through = (wire as unknown as { through: unknown }).through
    if (typeof through !== 'number') throw new Error('unreadable task log entry (an opening without its position)')
    return { opening: through }
  }
  if ((wire as unknown as ChangeWire)?.v === CHANGE_VERSION) {
    const change = wire as unknown as ChangeWire
    if (typeof change.change !== 'string' || typeof change.origin !== 'string') throw new Error('unreadable task log entry (a change without its body)')
    const entry: ChangeEntry = { change: JSON.parse(change.change) as ChangeEntry['change'], origin: change.origin }
    if (typeof change.at === 'number') entry.enqueuedAt = change.at
    return entry
  }
  if (wire?.v !== VERSION || typeof wire.task !== 'string') throw new Error(`unreadable task log entry (version ${String(wire?.v)})`)
  const ops = wire.ops.map(([column, key, value]): WriteOp => {
    if (!(COLUMNS as readonly string[]).includes(column)) throw new Error(`task log entry writes to unknown column ${column}`)
    return value === null ? { column, key: Buffer.from(key) } : { column, key: Buffer.from(key), value: Buffer.from(value) }
  })
  return { task: JSON.parse(wire.task) as NewTask, enqueuedAt: wire.enqueuedAt, ops, object: wire.object ?? null }
}

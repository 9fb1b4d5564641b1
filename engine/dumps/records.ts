/**
 * The smaller records of a v6 dump besides tasks: API keys (`keys.jsonl`, Meilisearch's `Key`: snake_case fields,
 * RFC 3339 dates; never the key's value, which derives from the master key and the uid), batches
 * (`batches/queue.jsonl`, Meilisearch's `Batch`: camelCase, RFC 3339 dates, `stopReason`), and index metadata
 * (`indexes/<uid>/metadata.json`).
 */
import { formatMicros } from '../tasks/time.js'
import type { Batch, Micros } from '../tasks/types.js'
import { badDump } from './errors.js'
import { dumpDate } from './tasks.js'

type Json = Record<string, unknown>

/**
 * A key as the `keys` column stores it (written by the service's key store; the engine reads it only to dump and
 * restore it). `expiresAt` keeps the offset it was given with.
 */
export interface StoredKey {
  uid: string
  name: string | null
  description: string | null
  actions: string[]
  indexes: string[]
  expiresAt: { at: Micros; offsetMinutes: number } | null
  createdAt: Micros
  updatedAt: Micros
}

/** An instant written with its offset, as RFC 3339 (`2030-01-01T01:00:00+01:00`). */
function formatWithOffset(at: Micros, offsetMinutes: number): string {
  if (offsetMinutes === 0) return formatMicros(at)
  const local = formatMicros(at + offsetMinutes * 60_000_000).slice(0, -1)
  const sign = offsetMinutes < 0 ? '-' : '+'
  const abs = Math.abs(offsetMinutes)
  return `${local}${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`
}

function offsetOf(text: string): number {
  const m = /([+-])(\d{2}):(\d{2})$/.exec(text)
  return m ? (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3])) : 0
}

export function keyToDump(key: StoredKey): Json {
  const out: Json = {}
  if (key.description !== null) out.description = key.description
  if (key.name !== null) out.name = key.name
  Object.assign(out, {
    uid: key.uid,
    actions: key.actions,
    indexes: key.indexes,
    expires_at: key.expiresAt === null ? null : formatWithOffset(key.expiresAt.at, key.expiresAt.offsetMinutes),
    created_at: formatMicros(key.createdAt),
    updated_at: formatMicros(key.updatedAt),
  })
  return out
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

export function keyFromDump(line: unknown): StoredKey {
  if (!line || typeof line !== 'object') throw badDump('a key line is not a JSON object')
  const k = line as Json
  const uid = typeof k.uid === 'string' ? k.uid.toLowerCase() : ''
  if (!UUID.test(uid)) throw badDump(`a key has no valid uid: ${JSON.stringify(k.uid)}`)
  const strings = (v: unknown, what: string): string[] => {
    if (!Array.isArray(v) || v.some((x) => typeof x !== 'string')) throw badDump(`key ${uid}: \`${what}\` is not a list of strings`)
    return v as string[]
  }
  const expires = k.expires_at
  return {
    uid,
    name: typeof k.name === 'string' ? k.name : null,
    description: typeof k.description === 'string' ? k.description : null,
    actions: strings(k.actions, 'actions'),
    indexes: strings(k.indexes, 'indexes'),
    expiresAt: expires == null ? null : { at: dumpDate(expires, `key ${uid}'s expires_at`), offsetMinutes: offsetOf(String(expires)) },
    createdAt: dumpDate(k.created_at, `key ${uid}'s created_at`),
    updatedAt: dumpDate(k.updated_at, `key ${uid}'s updated_at`),
  }
}

export function batchToDump(batch: Batch): Json {
  return {
    uid: batch.uid,
    details: batch.details,
    stats: batch.stats,
    startedAt: formatMicros(batch.startedAt),
    finishedAt: batch.finishedAt === null ? null : formatMicros(batch.finishedAt),
    stopReason: batch.batchStrategy,
  }
}

export function batchFromDump(line: unknown): Batch {
  if (!line || typeof line !== 'object') throw badDump('a batch line is not a JSON object')
  const b = line as Json
  if (!Number.isInteger(b.uid) || (b.uid as number) < 0) throw badDump(`a batch has no valid uid: ${JSON.stringify(b.uid)}`)
  const stats = (b.stats && typeof b.stats === 'object' ? b.stats : {}) as Batch['stats']
  return {
    uid: b.uid as number,
    details: (b.details && typeof b.details === 'object' ? b.details : {}) as Batch['details'],
    stats: { totalNbTasks: stats.totalNbTasks ?? 0, status: stats.status ?? {}, types: stats.types ?? {}, indexUids: stats.indexUids ?? {}, ...(stats.progressTrace ? { progressTrace: stats.progressTrace } : {}) },
    startedAt: dumpDate(b.startedAt, `batch ${b.uid}'s startedAt`),
    finishedAt: b.finishedAt == null ? null : dumpDate(b.finishedAt, `batch ${b.uid}'s finishedAt`),
    batchStrategy: typeof b.stopReason === 'string' ? b.stopReason : '',
  }
}

/** `indexes/<uid>/metadata.json`. */
export interface IndexDump {
  uid: string
  primaryKey: string | null
  createdAt: Micros
  updatedAt: Micros
}

export function indexMetadataToDump(meta: IndexDump): Json {
  return { uid: meta.uid, primaryKey: meta.primaryKey, createdAt: formatMicros(meta.createdAt), updatedAt: formatMicros(meta.updatedAt) }
}

export function indexMetadataFromDump(value: unknown, dir: string): IndexDump {
  if (!value || typeof value !== 'object') throw badDump(`indexes/${dir}/metadata.json is not a JSON object`)
  const m = value as Json
  if (typeof m.uid !== 'string' || m.uid === '') throw badDump(`indexes/${dir}/metadata.json has no uid`)
  if (m.primaryKey != null && typeof m.primaryKey !== 'string') throw badDump(`indexes/${dir}/metadata.json: primaryKey is not a string`)
  return {
    uid: m.uid,
    primaryKey: (m.primaryKey as string | null | undefined) ?? null,
    createdAt: dumpDate(m.createdAt, `index ${m.uid}'s createdAt`),
    updatedAt: dumpDate(m.updatedAt, `index ${m.uid}'s updatedAt`),
  }
}

/**
 * How index-level operations change the catalog: create, update (primary key, rename), delete, swap.
 * Each handler reads and edits the batch's catalog draft and returns the task's outcome; nothing is visible
 * until the scheduler commits the draft's writes and publishes it.
 */
import { TesseraError, indexAlreadyExists, indexNotFound } from '../errors/index.js'
import type { CatalogDraft } from './catalog.js'
import type { Details, Micros, Operation } from '../tasks/types.js'
import { formatByteSize } from '../util/byte-size.js'

export interface OperationContext {
  draft: CatalogDraft
  now: Micros
  /** Old uid → new uid for indexes renamed or swapped by this batch: the queue rewrites task history with it. */
  renames: Map<string, string>
  /** Number of documents of an index (0 until documents exist). */
  documentCount(indexId: number): number
  /** Bytes of an index's stored documents (what its stats call `rawDocumentDbSize`). */
  documentBytes(indexId: number): number
}

export interface Outcome {
  details: Details | null
  /** Set when the task failed. */
  error?: TesseraError
}

type Handler<T extends Operation['type']> = (ctx: OperationContext, indexUid: string | null, op: Extract<Operation, { type: T }>, details: Details | null) => Outcome

function fail(details: Details | null, error: TesseraError): Outcome {
  return { details, error }
}

const indexCreation: Handler<'indexCreation'> = (ctx, uid, op, details) => {
  if (ctx.draft.get(uid!)) return fail(details, indexAlreadyExists(uid!))
  ctx.draft.create(uid!, op.primaryKey, ctx.now)
  return { details }
}

const indexUpdate: Handler<'indexUpdate'> = (ctx, uid, op, details) => {
  let meta = ctx.draft.get(uid!)
  if (!meta) return fail(details, indexNotFound(uid!))
  if (op.primaryKey !== null && op.primaryKey !== meta.primaryKey) {
    if (meta.primaryKey !== null && ctx.documentCount(meta.id) > 0) {
      return fail(details, new TesseraError('index_primary_key_already_exists', `Index already has a primary key: \`${meta.primaryKey}\`.`))
    }
  }
  if (op.newIndexUid !== null && op.newIndexUid !== uid) {
    if (ctx.draft.get(op.newIndexUid)) return fail(details, indexAlreadyExists(op.newIndexUid))
    meta = ctx.draft.rename(meta, op.newIndexUid, ctx.now)
    ctx.renames.set(uid!, op.newIndexUid)
  }
  ctx.draft.put({ ...meta, primaryKey: op.primaryKey ?? meta.primaryKey, updatedAt: ctx.now })
  return { details }
}

const indexDeletion: Handler<'indexDeletion'> = (ctx, uid, _op, details) => {
  const meta = ctx.draft.get(uid!)
  if (!meta) return fail({ ...details, deletedDocuments: 0 }, indexNotFound(uid!))
  const deletedDocuments = ctx.documentCount(meta.id)
  ctx.draft.delete(uid!)
  return { details: { ...details, deletedDocuments } }
}

const indexSwap: Handler<'indexSwap'> = (ctx, _uid, op, details) => {
  const missing = new Set<string>()
  for (const swap of op.swaps) {
    const [a, b] = swap.indexes
    if (!ctx.draft.get(a)) missing.add(a)
    if (!swap.rename && !ctx.draft.get(b)) missing.add(b)
  }
  if (missing.size === 1) return fail(details, indexNotFound([...missing][0]!))
  if (missing.size > 1) {
    const list = [...missing].sort().map((u) => `\`${u}\``).join(', ')
    return fail(details, new TesseraError('index_not_found', `Indexes ${list} not found.`))
  }
  // Sorted like Meilisearch's BTreeSet of (old, new) pairs.
  const byPair = (x: { indexes: [string, string] }, y: { indexes: [string, string] }) => x.indexes.join('\u0000') < y.indexes.join('\u0000') ? -1 : 1
  const conflicts = op.swaps.filter((s) => s.rename && ctx.draft.get(s.indexes[1])).sort(byPair)
  if (conflicts.length === 1) {
    const [a, b] = conflicts[0]!.indexes
    return fail(details, new TesseraError('index_already_exists', `Cannot rename \`${a}\` to \`${b}\` as the index already exists. Hint: You can remove \`${b}\` first and then do your remove.`))
  }
  if (conflicts.length > 1) {
    const list = conflicts.map((s) => `\`${s.indexes[1]}\``).join(', ')
    return fail(details, new TesseraError('index_already_exists', `The following indexes are being renamed but cannot because their new name conflicts with an already existing index: ${list}. Renaming doesn't overwrite the other index name.`))
  }
  for (const swap of op.swaps) {
    const [a, b] = swap.indexes
    const metaA = ctx.draft.get(a)!
    if (swap.rename) {
      ctx.draft.rename(metaA, b, ctx.now)
      ctx.renames.set(a, b)
      continue
    }
    const metaB = ctx.draft.get(b)!
    // The data stays under each internal id; only the names trade places.
    ctx.draft.put({ ...metaB, uid: a, updatedAt: ctx.now })
    ctx.draft.put({ ...metaA, uid: b, updatedAt: ctx.now })
    ctx.renames.set(a, b)
    ctx.renames.set(b, a)
  }
  return { details }
}

/**
 * RocksDB compacts in the background and drops an index's rows as a key range, so there is nothing left to reclaim
 * on demand: the task reports the index's size before and after, which are the same, in Meilisearch's units.
 */
const indexCompaction: Handler<'indexCompaction'> = (ctx, uid, _op, details) => {
  const meta = ctx.draft.get(uid!)
  if (!meta) return fail(details, indexNotFound(uid!))
  const size = formatByteSize(ctx.documentBytes(meta.id))
  return { details: { ...details, preCompactionSize: size, postCompactionSize: size } }
}

const HANDLERS: { [T in Operation['type']]?: Handler<T> } = { indexCreation, indexUpdate, indexDeletion, indexSwap, indexCompaction }

/** Apply one index-level operation to the draft. */
export function applyIndexOperation(ctx: OperationContext, indexUid: string | null, op: Operation, details: Details | null): Outcome {
  const handler = HANDLERS[op.type] as Handler<typeof op.type> | undefined
  if (!handler) throw new Error(`no handler for ${op.type}`)
  return handler(ctx, indexUid, op as never, details)
}

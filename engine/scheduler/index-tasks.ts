/**
 * A batch of one index's tasks: index operations (creation, update, deletion, swap) edit the catalog draft;
 * document and settings tasks go through an `IndexBatch` (indexing/). A failing document or settings task fails the
 * whole batch, and nothing of it is applied. Renames and swaps carry the task history along.
 */
import { toErrorObject } from '../errors/index.js'
import { IndexBatch, BatchAborted } from '../indexing/index-batch.js'
import { releaseQueryEmbedders } from '../indexing/release-embedders.js'
import { applyIndexOperation, type OperationContext } from '../indexes/changes.js'
import { dropGarbage } from '../indexes/garbage.js'
import type { Task } from '../tasks/types.js'
import { nowMicros } from '../tasks/time.js'
import { failedDetails, finish, type BatchEnv, type ComputedBatch } from './computed-batch.js'
import type { Write } from '../storage/index.js'
import { batchClassOf } from './selection.js'

/** Whether the task creates its index when missing (a document addition or settings update allowed to). */
function createsIndex(task: Task): boolean {
  const c = batchClassOf(task)
  return (c.kind === 'documentAddition' || c.kind === 'settings') && c.allowIndexCreation
}

/** The documents this batch leaves as they are (settled by a move up to past its last task), or null. */
function settledIn(env: BatchEnv, tasks: Task[]): ((id: string) => boolean) | null {
  const indexUid = tasks[0]!.indexUid
  if (indexUid === null || !env.deps.settled) return null
  return env.deps.settled.untouched(indexUid, tasks[tasks.length - 1]!.uid)
}

export async function computeIndexBatch(env: BatchEnv, tasks: Task[], signal: AbortSignal): Promise<ComputedBatch | null> {
  // A facet index being built from the published documents is not made to start over by this batch's publish.
  const index = tasks[0]!.indexUid === null ? undefined : env.catalog.get(tasks[0]!.indexUid)
  if (index) await env.deps.facets.settled(index.id)
  const draft = env.catalog.draft()
  const now = nowMicros()
  const ctx: OperationContext = { draft, now, renames: new Map(), documentCount: (id) => env.deps.documents.count(id), documentBytes: (id) => env.deps.documents.state(id).rawSize }
  const documents = new IndexBatch({ store: env.store, documents: env.deps.documents, payloads: env.deps.payloads, inverted: env.deps.inverted, facets: env.deps.facets, vectors: env.deps.vectors, pool: env.deps.pool, features: env.deps.features, keepsDocument: env.deps.keepsDocument?.() ?? null, untouched: settledIn(env, tasks), draft, now, signal, progress: env.progress, receivedDocuments: receivedDocuments(tasks) })
  const finals: Task[] = []
  const payloads = tasks.flatMap((t) => (t.operation.type === 'documentAdditionOrUpdate' ? [t.operation.payload] : []))
  // The batch's commit drops the payloads' database copies; their files go after it.
  const dropCopies = payloads.map((p) => env.deps.payloads.dropCopyOp(p))
  const removePayloads = async () => { for (const p of payloads) await env.deps.payloads.remove(p, true) }
  let renamer = -1
  // An index deletion absorbs the document and settings tasks batched before it: they are not applied (the index
  // goes anyway) and succeed having done nothing, as in Meilisearch.
  const deletes = tasks[tasks.length - 1]!.operation.type === 'indexDeletion'
  // Meilisearch's `index_has_been_created`: when the tasks batched before the deletion would have created the missing
  // index, the deletion succeeds (having deleted nothing) rather than failing with `index_not_found`, so the tasks
  // it absorbed do not stand as succeeded on an index that never existed.
  const createdByBatch = deletes && index === undefined && tasks.length > 1 && createsIndex(tasks[0]!)
  try {
    for (const task of tasks) {
      if (IndexBatch.handles(task)) {
        finals.push(finish(task, 'succeeded', deletes ? failedDetails(task.details) : await documents.apply(task), null))
        continue
      }
      if (createdByBatch && task.operation.type === 'indexDeletion' && !draft.get(task.indexUid!)) {
        finals.push(finish(task, 'succeeded', { ...task.details, deletedDocuments: 0 }, null))
        continue
      }
      const renamesBefore = ctx.renames.size
      const result = applyIndexOperation(ctx, task.indexUid, task.operation, task.details)
      if (ctx.renames.size !== renamesBefore) renamer = task.uid
      finals.push(finish(task, result.error ? 'failed' : 'succeeded', result.error ? failedDetails(result.details) : result.details, result.error ? result.error.toJSON() : null))
    }
  } catch (err) {
    await documents.abandon()
    if (signal.aborted || err instanceof BatchAborted) return null
    // A failing document or settings task fails its whole batch, and nothing of the batch is applied.
    const error = toErrorObject(err, (line) => env.options.log?.(`batch failed: ${line}`, 'ERROR'))
    return {
      prepare: async () => dropCopies,
      finals: tasks.map((t) => finish(t, 'failed', failedDetails(t.details), error)),
      before: new Map(tasks.map((t) => [t.uid, t])),
      publish: () => {},
      // An embedder built for settings this batch failed to apply is closed too.
      afterCommit: async () => { await removePayloads(); await releaseQueryEmbedders(env.store, env.catalog) },
      abandon: async () => {},
      embedderRequests: documents.embedderRequests,
    }
  }
  const prepare = async () => {
    const ops: Write[] = draft.ops.slice()
    for (const op of await documents.finalOps()) ops.push(op)
    for (const op of dropCopies) ops.push(op)
    return ops
  }
  const before = new Map<number, Task>(tasks.map((t) => [t.uid, t]))
  // Renames and swaps carry the task history along: earlier tasks now name the index by its new uid. The
  // renaming task itself and every later task keep the names they were registered with (Meilisearch rewrites
  // only the tasks older than the swap).
  if (ctx.renames.size > 0) {
    const touched = env.queue.index.byIndex.union([...ctx.renames.keys()])
    const inBatch = new Map(finals.map((t) => [t.uid, t]))
    for (const uid of touched) {
      if (uid >= renamer) break
      const original = inBatch.get(uid) ?? env.queue.get(uid)
      if (!original) continue
      const rewritten = renameInTask(original, ctx.renames)
      if (inBatch.has(uid)) finals[finals.findIndex((t) => t.uid === uid)] = rewritten
      else { finals.push(rewritten); before.set(uid, original) }
    }
  }
  return {
    prepare,
    finals,
    before,
    publish: () => {
      env.catalog.publish(draft)
      documents.publish()
      for (const id of draft.garbage) { env.deps.documents.forget(id); env.deps.inverted.forget(id); env.deps.facets.forget(id); env.deps.vectors.forget(id) }
    },
    afterCommit: async () => {
      env.deps.vectors.save()
      await removePayloads()
      await dropGarbage(env.store, draft.garbage)
      // Query embedders of deleted indexes, or of embedders removed or changed, are closed.
      await releaseQueryEmbedders(env.store, env.catalog)
    },
    abandon: () => documents.abandon(),
    embedderRequests: documents.embedderRequests,
  }
}

/** The documents the batch's additions carry, counted at registration: the total of the batch's `document` count. */
function receivedDocuments(tasks: Task[]): number {
  let total = 0
  for (const t of tasks) if (t.operation.type === 'documentAdditionOrUpdate') total += Number(t.details?.receivedDocuments ?? 0)
  return total
}

function renameInTask(task: Task, renames: Map<string, string>): Task {
  const rename = (u: string) => renames.get(u) ?? u
  const out: Task = { ...task, indexUid: task.indexUid === null ? null : rename(task.indexUid) }
  if (task.operation.type === 'indexUpdate' && task.operation.newIndexUid !== null) {
    out.operation = { ...task.operation, newIndexUid: rename(task.operation.newIndexUid) }
  }
  if (task.operation.type === 'indexSwap') {
    const swaps = task.operation.swaps.map((s) => ({ ...s, indexes: s.indexes.map(rename) as [string, string] }))
    out.operation = { ...task.operation, swaps }
    out.details = { ...task.details, swaps }
  }
  return out
}

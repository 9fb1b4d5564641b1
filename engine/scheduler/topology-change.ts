/**
 * A `networkTopologyChange` batch (cluster mode, a shard move; see README "Cluster"): on this node, for every index,
 * the documents of shards `self` no longer owns are deleted, and the documents of each shard it gained are fetched
 * from an owner that held the shard before the change and still does (network/shard-transfer.ts), then added as an
 * addition would add them. One atomic commit, like any batch.
 *
 * The task is a barrier (selection.ts): it runs once every task registered before it is applied here, and no later
 * task is batched before it, so this node's documents are exactly those of the tasks before it. The owner fetched
 * from is first made to finish the index's last task before the move (`X-Tessera-After-Task`); it may be further
 * along, and this node then applies those later tasks again itself (harmless for additions, updates and deletions,
 * not for an edit by function, which would run twice on the moved documents).
 *
 * A gained shard no former owner can give (none reachable, or none left) is logged and skipped: the task still
 * succeeds, as on the other nodes, and this node lacks that shard's documents.
 */
import { rm, writeFile } from 'node:fs/promises'
import { IndexBatch, BatchAborted } from '../indexing/index-batch.js'
import { addDocuments } from '../indexing/additions.js'
import { deleteByIds } from '../indexing/deletions.js'
import { toErrorObject } from '../errors/index.js'
import { validatePayloadFile } from '../payload/documents.js'
import { ShardSet, shardsOwnedBy } from '../network/sharding.js'
import { fetchShard } from '../network/shard-transfer.js'
import type { IndexMeta } from '../indexes/catalog.js'
import type { Network } from '../network/types.js'
import type { NetworkTopologyChange, Task } from '../tasks/types.js'
import { nowMicros } from '../tasks/time.js'
import { randomUUID } from 'node:crypto'
import { failedDetails, finish, type BatchEnv, type ComputedBatch } from './computed-batch.js'

export async function computeTopologyChange(env: BatchEnv, task: Task, signal: AbortSignal): Promise<ComputedBatch | null> {
  const op = task.operation as NetworkTopologyChange
  const network = env.deps.network?.current
  const nothing: ComputedBatch = {
    prepare: async () => [], finals: [finish(task, 'succeeded', task.details, null)], before: new Map([[task.uid, task]]),
    publish: () => {}, afterCommit: async () => {}, abandon: async () => {},
  }
  if (network === undefined || !env.deps.network!.sharding) return nothing
  const log = (msg: string) => env.options.log?.(`shard move (task ${task.uid}): ${msg}`, 'ERROR')
  // Shards removed altogether: every node should hold every document again, which no shard filter can fetch.
  if (Object.keys(network.shards).length === 0) {
    log('the network has no shards any more: documents are not copied back to every node')
    return nothing
  }
  const shards = new ShardSet(Object.keys(network.shards))
  const owned = shardsOwnedBy(network, network.self)
  // Without shards before, every node held every document: nothing to gain, only to drop.
  const everything = Object.keys(op.previous).length === 0
  const before = new Set(Object.entries(op.previous).filter(([, owners]) => network.self !== null && owners.includes(network.self)).map(([s]) => s))
  const gained = everything ? [] : [...owned].filter((s) => !before.has(s))
  const keeps = (id: string) => owned.has(shards.shardOf(id)!)

  const draft = env.catalog.draft()
  const batch = new IndexBatch({
    store: env.store, documents: env.deps.documents, payloads: env.deps.payloads, inverted: env.deps.inverted, facets: env.deps.facets,
    vectors: env.deps.vectors, pool: env.deps.pool, features: env.deps.features, keepsDocument: keeps, draft, now: nowMicros(), signal, progress: env.progress,
  })
  const files: string[] = []
  const removeFiles = async () => { for (const f of files) await rm(f, { force: true }) }
  // Meilisearch's details: the documents moved (here: dropped or fetched by this node, so they differ per node).
  let moved = 0
  try {
    for (const meta of env.catalog.list()) {
      if (meta.primaryKey === null) continue
      moved += await dropUnowned(env, batch, meta, keeps)
      const afterTask = lastTaskBefore(env, meta.uid, task.uid)
      for (const shard of gained) {
        const docs = await fromFormerOwner(network, op, shard, meta.uid, afterTask, log)
        batch.checkAborted()
        if (docs === null || docs.length === 0) continue
        files.push(await addFetched(env, batch, meta, docs))
        moved += docs.length
      }
    }
  } catch (err) {
    await batch.abandon()
    await removeFiles()
    if (signal.aborted || err instanceof BatchAborted) return null
    const error = toErrorObject(err, (line) => log(line))
    return { ...nothing, finals: [finish(task, 'failed', failedDetails(task.details), error)] }
  }
  return {
    prepare: async () => [...draft.ops, ...await batch.finalOps()],
    finals: [finish(task, 'succeeded', { movedDocuments: moved, message: 'Finished' }, null)],
    before: new Map([[task.uid, task]]),
    publish: () => { env.catalog.publish(draft); batch.publish() },
    afterCommit: async () => { env.deps.vectors.save(); await removeFiles() },
    abandon: async () => { await batch.abandon(); await removeFiles() },
    embedderRequests: batch.embedderRequests,
  }
}

/** Delete the index's documents whose shard this node does not own (any more). */
async function dropUnowned(env: BatchEnv, batch: IndexBatch, meta: IndexMeta, keeps: (id: string) => boolean): Promise<number> {
  const doomed: string[] = []
  for await (const [, doc] of env.deps.documents.scan(meta.id)) {
    const id = doc[meta.primaryKey!]
    if ((typeof id === 'string' || typeof id === 'number') && !keeps(String(id))) doomed.push(String(id))
  }
  return doomed.length > 0 ? await deleteByIds(batch, meta, doomed) : 0
}

/** The index's last task before `uid` (what an owner must have applied before it gives its documents). */
function lastTaskBefore(env: BatchEnv, indexUid: string, uid: number): number | null {
  const tasks = env.queue.index.byIndex.get(indexUid)
  if (!tasks || uid === 0) return null
  const rank = tasks.rank(uid - 1)
  return rank === 0 ? null : tasks.select(rank - 1) ?? null
}

/** The shard's documents from an owner before and after the change (each tried in turn); null when none gave them. */
async function fromFormerOwner(network: Readonly<Network>, op: NetworkTopologyChange, shard: string, indexUid: string, afterTask: number | null, log: (msg: string) => void) {
  const former = op.previous[shard] ?? []
  const donors = (network.shards[shard]?.remotes ?? []).filter((r) => r !== network.self && former.includes(r) && Object.hasOwn(network.remotes, r))
  for (const donor of donors) {
    try {
      return await fetchShard(network.remotes[donor]!, indexUid, shard, afterTask)
    } catch (err) {
      log(`fetching shard ${shard} of index ${indexUid} from ${donor} failed (${(err as Error).message})`)
    }
  }
  log(donors.length === 0
    ? `no owner of shard ${shard} before the change still owns it: its documents of index ${indexUid} are not moved here`
    : `no owner gave shard ${shard} of index ${indexUid}: its documents are not moved here`)
  return null
}

/** Add fetched documents as an addition (replacing) would, from a payload file of this batch. */
async function addFetched(env: BatchEnv, batch: IndexBatch, meta: IndexMeta, docs: Record<string, unknown>[]): Promise<string> {
  const name = `shard-move-${randomUUID()}`
  const path = env.deps.payloads.path(name)
  await writeFile(path, docs.map((d) => JSON.stringify(d)).join('\n'))
  const checked = await validatePayloadFile({ path, format: 'ndjson', csvDelimiter: ',' })
  if (!checked.ok) throw new Error(`fetched documents are not a valid payload: ${checked.message}`)
  await addDocuments(batch, meta.uid, {
    type: 'documentAdditionOrUpdate', method: 'replace', payload: name, format: 'ndjson', csvDelimiter: ',',
    primaryKey: meta.primaryKey, allowIndexCreation: false, chunks: checked.chunks,
  }, null)
  return path
}

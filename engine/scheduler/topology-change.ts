/**
 * A `networkTopologyChange` batch (cluster mode, a shard move; see README "Cluster"): on this node, for every index,
 * the documents it no longer keeps are deleted, and those of the shards it gained are fetched from nodes that held
 * them (network/shard-transfer.ts) and added as an addition would add them; network/shard-moves.ts decides which.
 * One atomic commit, like any batch.
 *
 * The task is a barrier (selection.ts): it runs once every task registered before it is applied here, and no later
 * task is batched before it, so this node's documents are exactly those of the tasks before it. The node fetched
 * from is first made to finish the index's last task before the move (`X-Tessera-After-Task`); it may be further
 * along: it says how far (its last finished task of the index), and the fetched documents are then settled up to
 * there (settled-documents.ts): this node's later tasks up to that position leave them as they are, so each task
 * takes effect once on them (an edit by function does not run twice).
 *
 * Documents no node gives (none reachable, or none held them) are logged and skipped: the task still succeeds, as on
 * the other nodes, and this node lacks them.
 */
import { rm, writeFile } from 'node:fs/promises'
import { IndexBatch, BatchAborted } from '../indexing/index-batch.js'
import { addDocuments } from '../indexing/additions.js'
import { deleteByIds } from '../indexing/deletions.js'
import { toErrorObject } from '../errors/index.js'
import { validatePayloadFile } from '../payload/documents.js'
import { planMove } from '../network/shard-moves.js'
import { fetchShard } from '../network/shard-transfer.js'
import type { Document } from '../payload/documents.js'
import type { IndexMeta } from '../indexes/catalog.js'
import type { Network } from '../network/types.js'
import type { NetworkTopologyChange, Task } from '../tasks/types.js'
import { nowMicros } from '../tasks/time.js'
import { randomUUID } from 'node:crypto'
import { failedDetails, finish, type BatchEnv, type ComputedBatch } from './computed-batch.js'
import type { SettledRecord } from './settled-documents.js'
import type { FetchedShard } from '../network/shard-transfer.js'

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
  // The owners the move was registered with (the network may already be past it here).
  const moving = { ...network, shards: Object.fromEntries(Object.entries(op.shards).map(([name, remotes]) => [name, { remotes }])) }
  const plan = planMove(moving, op.previous)
  const shardNames = Object.keys(op.shards)
  const settled: SettledRecord[] = []
  const keeps = plan.keeps

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
      // One fetch per donor and shard serves every former shard asked of that donor.
      const fetched = new Map<string, Promise<FetchedShard>>()
      for (const { shard, from, donors } of plan.fetches) {
        const got = await fromDonors(network, donors, meta.uid, shard, shardNames, afterTask, fetched, log)
        batch.checkAborted()
        const taken = (got?.documents ?? []).filter((d) => {
          const id = d[meta.primaryKey!]
          return (typeof id === 'string' || typeof id === 'number') && plan.previousShardOf(String(id)) === from
        })
        if (taken.length === 0) continue
        // The donor past the move: its documents already carry the index's tasks up to its position.
        if (got!.appliedThrough !== null && got!.appliedThrough > task.uid) {
          settled.push({ indexUid: meta.uid, through: got!.appliedThrough, ids: taken.map((d) => String(d[meta.primaryKey!])) })
        }
        files.push(await addFetched(env, batch, meta, taken))
        moved += taken.length
      }
    }
  } catch (err) {
    await batch.abandon()
    await removeFiles()
    if (signal.aborted || err instanceof BatchAborted) return null
    const error = toErrorObject(err, (line) => log(line))
    return { ...nothing, finals: [finish(task, 'failed', failedDetails(task.details), error)] }
  }
  const settling = env.deps.settled?.plan(settled, task.uid) ?? { ops: [], publish: () => {} }
  return {
    prepare: async () => [...draft.ops, ...await batch.finalOps(), ...settling.ops],
    finals: [finish(task, 'succeeded', { movedDocuments: moved, message: 'Finished' }, null)],
    before: new Map([[task.uid, task]]),
    publish: () => { env.catalog.publish(draft); batch.publish(); settling.publish() },
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

/** A shard's documents from the first donor that gives them; null when none did (logged). */
async function fromDonors(network: Readonly<Network>, donors: string[], indexUid: string, shard: string, shardNames: string[], afterTask: number | null, fetched: Map<string, Promise<FetchedShard>>, log: (msg: string) => void): Promise<FetchedShard | null> {
  for (const donor of donors) {
    const key = `${donor}\u0000${shard}`
    let docs = fetched.get(key)
    if (docs === undefined) fetched.set(key, (docs = fetchShard(network.remotes[donor]!, indexUid, shard, shardNames, afterTask)))
    try {
      return await docs
    } catch (err) {
      log(`fetching shard ${shard} of index ${indexUid} from ${donor} failed (${(err as Error).message})`)
    }
  }
  log(donors.length === 0
    ? `no node held documents of shard ${shard} of index ${indexUid} before the change: they are not moved here`
    : `no node gave shard ${shard} of index ${indexUid}: its documents are not moved here`)
  return null
}

/** Add fetched documents as an addition (replacing) would, from a payload file of this batch. */
async function addFetched(env: BatchEnv, batch: IndexBatch, meta: IndexMeta, docs: Document[]): Promise<string> {
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

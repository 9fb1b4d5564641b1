/**
 * `POST /indexes/{uid}/shard-transfer` (cluster mode, internal): a shard's documents as this node holds them, for a
 * node that gained the shard in a move (network/shard-transfer.ts fetches them), with this node's applied position
 * for the index: its last finished task of the index. The documents carry exactly the effects of the index's tasks
 * up to that position (an index's tasks are applied in uid order), so the receiving node leaves them as they are
 * when it applies those tasks itself (scheduler/settled-documents.ts).
 *
 * The shard is computed with the shard names the asking node gives (those of the move), not this node's network,
 * which may be before or past the move. Documents and position are read in one synchronous step, so no batch is
 * published between them.
 */
import type { Engine } from '../engine.js'
import type { Document } from '../payload/documents.js'
import { shape } from '../documents/read.js'
import { ShardSet } from '../network/index.js'
import { storedVectors } from '../vectors/output.js'
import { newBitmap } from '../tasks/task-index.js'

export interface ShardTransfer {
  documents: Document[]
  /** This node's last finished task of the index, or null when it finished none. */
  appliedThrough: number | null
}

const FINISHED = ['succeeded', 'failed', 'canceled'] as const

export async function shardTransfer(engine: Engine, uid: string, shard: string, shardNames: string[]): Promise<ShardTransfer> {
  const vectors = await engine.vectors.get(engine.index(uid).id)
  // From here on, synchronous: the documents, their vectors and the position are those of one published state.
  const meta = engine.index(uid)
  const settings = engine.settings.of(meta.id)
  const shards = new ShardSet(shardNames)
  const docids = engine.documents.page(meta.id, 0, engine.documents.count(meta.id))
  const documents: Document[] = []
  if (meta.primaryKey !== null) {
    engine.documents.getMany(meta.id, docids).forEach((doc, k) => {
      const id = doc[meta.primaryKey!]
      if ((typeof id !== 'string' && typeof id !== 'number') || shards.shardOf(id) !== shard) return
      documents.push(shape(doc, null, true, storedVectors(vectors, settings.embedders, docids[k]!)))
    })
  }
  const finished = newBitmap()
  for (const status of FINISHED) finished.orInPlace(engine.queue.index.status(status))
  finished.andInPlace(engine.queue.index.byIndex.get(uid) ?? newBitmap())
  return { documents, appliedThrough: finished.size === 0 ? null : finished.maximum() }
}

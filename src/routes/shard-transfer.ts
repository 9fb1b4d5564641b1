/**
 * `POST /indexes/{uid}/shard-transfer` (cluster mode only; internal, not Meilisearch's): a shard's documents and
 * this node's applied position for the index, for a node that gained the shard in a move
 * (engine/operations/shard-transfer.ts). Body: `{"shard": name, "shards": [every shard name of the move]}`; the
 * asker names the index's last task before the move in `X-Tessera-After-Task`. Needs `documents.get`.
 */
import { json } from '../http/json.js'
import { key, route } from '../http/router.js'
import { indexUidFromPath } from '../api/index-uid.js'
import { TesseraError, shardTransfer } from '../../engine/index.js'
import type { AppContext, AppRoute } from './context.js'

function parseBody(body: unknown): { shard: string; shards: string[] } {
  const b = body as { shard?: unknown; shards?: unknown } | null
  if (typeof b?.shard !== 'string' || !Array.isArray(b.shards) || !b.shards.every((s) => typeof s === 'string') || !b.shards.includes(b.shard)) {
    throw new TesseraError('bad_request', 'A shard transfer needs `shard` (a name) and `shards` (every shard name, that one included).')
  }
  return { shard: b.shard, shards: b.shards as string[] }
}

export const shardTransferRoutes: AppRoute[] = [
  route<AppContext>('POST', '/indexes/:uid/shard-transfer', key('documents.get'), async ({ engine, config, params, body }) => {
    if (!config.cluster) throw new TesseraError('bad_request', 'Shard transfers exist in cluster mode only.')
    const uid = indexUidFromPath(params.uid!)
    const { shard, shards } = parseBody(await body())
    return json(200, await shardTransfer(engine, uid, shard, shards))
  }),
]

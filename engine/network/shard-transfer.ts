/**
 * Fetching a shard's documents from another owner, for a node that gained the shard (scheduler/topology-change.ts):
 * `POST {url}/indexes/{uid}/shard-transfer` with the shard and the move's shard names (the donor computes the shard
 * with them, whatever its own network is by then), once the owner has finished `afterTask`
 * (`X-Tessera-After-Task`), so it holds at least what this node's tasks before the move produced. The answer
 * carries the owner's applied position for the index (engine/operations/shard-transfer.ts). The key sent is the
 * remote's `writeApiKey`, else its `searchApiKey` (it needs `documents.get`).
 */
import type { Document } from '../payload/documents.js'
import type { Remote } from './types.js'

/** The answer may wait for the owner to apply `afterTask` (its read timeout, 10 s by default), then be read whole. */
const TIMEOUT_MS = 60_000

export interface FetchedShard {
  documents: Document[]
  /** The donor's last finished task of the index: its documents carry the effects of the index's tasks up to it. */
  appliedThrough: number | null
}

export async function fetchShard(remote: Remote, indexUid: string, shard: string, shardNames: string[], afterTask: number | null): Promise<FetchedShard> {
  const headers: Record<string, string> = { 'content-type': 'application/json' }
  const key = remote.writeApiKey ?? remote.searchApiKey
  if (key !== null) headers.authorization = `Bearer ${key}`
  if (afterTask !== null) headers['x-tessera-after-task'] = String(afterTask)
  const url = `${remote.url.replace(/\/$/, '')}/indexes/${encodeURIComponent(indexUid)}/shard-transfer`
  const response = await fetch(url, {
    method: 'POST', headers, signal: AbortSignal.timeout(TIMEOUT_MS), body: JSON.stringify({ shard, shards: shardNames }),
  })
  const text = await response.text()
  if (response.status !== 200) throw new Error(`${url} answered ${response.status}: ${text.slice(0, 300)}`)
  const answer = JSON.parse(text) as FetchedShard
  if (!Array.isArray(answer.documents)) throw new Error(`${url} answered without documents`)
  return { documents: answer.documents, appliedThrough: typeof answer.appliedThrough === 'number' ? answer.appliedThrough : null }
}

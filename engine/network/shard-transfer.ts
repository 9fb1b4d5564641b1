/**
 * Fetching a shard's documents from another owner, for a node that gained the shard (scheduler/topology-change.ts):
 * `POST {url}/indexes/{uid}/documents/fetch` with `filter: _shard = "name"`, page by page, vectors included, once the
 * owner has finished `afterTask` (`X-Tessera-After-Task`), so it holds at least what this node's tasks before the
 * move produced. The key sent is the remote's `writeApiKey`, else its `searchApiKey` (it needs `documents.get`).
 */
import type { Document } from '../payload/documents.js'
import type { Remote } from './types.js'
import { shardFilter } from './shard-routing.js'

const PAGE = 1_000
/** One page may wait for the owner to apply `afterTask` (its read timeout, 10 s by default) and then be read. */
const PAGE_TIMEOUT_MS = 30_000

export async function fetchShard(remote: Remote, indexUid: string, shard: string, afterTask: number | null): Promise<Document[]> {
  const headers: Record<string, string> = { 'content-type': 'application/json' }
  const key = remote.writeApiKey ?? remote.searchApiKey
  if (key !== null) headers.authorization = `Bearer ${key}`
  if (afterTask !== null) headers['x-tessera-after-task'] = String(afterTask)
  const url = `${remote.url.replace(/\/$/, '')}/indexes/${encodeURIComponent(indexUid)}/documents/fetch`
  const out: Document[] = []
  for (let offset = 0; ; offset += PAGE) {
    const response = await fetch(url, {
      method: 'POST', headers, signal: AbortSignal.timeout(PAGE_TIMEOUT_MS),
      body: JSON.stringify({ filter: shardFilter([shard]), offset, limit: PAGE, retrieveVectors: true }),
    })
    const text = await response.text()
    if (response.status !== 200) throw new Error(`${url} answered ${response.status}: ${text.slice(0, 300)}`)
    const page = JSON.parse(text) as { results: Document[]; total: number }
    out.push(...page.results)
    if (page.results.length < PAGE || out.length >= page.total) return out
  }
}

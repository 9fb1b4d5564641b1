/**
 * The crash storm's checks after a restart, against what the clients were acknowledged:
 * - every `202` task exists with its type and index, and ends; a task nobody was acknowledged is the one request a
 *   client had in flight at the kill (or it is a phantom); uids are unique and never go back;
 * - each index, read right after the restart, equals the model after a prefix of its succeeded tasks (a batch is
 *   applied whole or not at all), and after the queue drains equals the model after all of them (documents,
 *   settings, a keyword search, a filter, facet counts);
 * - no payload file is left once every task has ended.
 */
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { apply, cloneIndex, docsKey, emptyIndex, probeCount, tagCounts, taskType, PROBE_WORD, type Doc, type IndexState, type Operation } from './model.js'
import type { ClientRecord } from './workload.js'
import { getJson, postJson, tasksAfter } from './server.js'

export interface Owner { client: number; indexes: string[] }

/** What the server holds for an index at one moment. */
export interface Observed { exists: boolean; docs: string; searchable: string[]; filterable: string[] }

export async function observe(url: string, index: string): Promise<Observed> {
  const docs = await getJson(`${url}/indexes/${index}/documents?limit=100000`)
  const settings = await getJson(`${url}/indexes/${index}/settings`)
  if (!docs || !settings) return { exists: false, docs: '', searchable: ['*'], filterable: [] }
  return { exists: true, docs: docsKey(docs.results as Doc[]), searchable: settings.searchableAttributes, filterable: settings.filterableAttributes }
}

function sameSettings(s: IndexState, o: Observed): boolean {
  return JSON.stringify(s.searchable) === JSON.stringify(o.searchable) && JSON.stringify([...s.filterable].sort()) === JSON.stringify([...o.filterable].sort())
}

function matches(s: IndexState, o: Observed): boolean {
  if (!o.exists) return s.docs.size === 0 && s.searchable[0] === '*' && s.filterable.length === 0
  return docsKey(s.docs.values()) === o.docs && sameSettings(s, o)
}

/** The verifier's memory across restarts: the model after every verified round, the highest uid seen. */
export class Ledger {
  /** Per client: index uid → state after every task verified so far. */
  readonly states = new Map<number, Map<string, IndexState>>()
  /** Uids already accounted for (acknowledged or explained). */
  readonly seen = new Set<number>()
  maxUid = -1
  tasksVerified = 0
  recoveredInFlight = 0

  constructor(readonly owners: Owner[]) {
    for (const o of owners) this.states.set(o.client, new Map(o.indexes.map((i) => [i, emptyIndex()])))
  }

  ownerOfIndex(index: string): Owner | undefined {
    return this.owners.find((o) => o.indexes.includes(index))
  }
}

/** The client a server task belongs to, from its index, swap or cancelation filter. */
function ownerOfTask(ledger: Ledger, task: any): Owner | undefined {
  if (task.indexUid) return ledger.ownerOfIndex(task.indexUid)
  const swapped = task.details?.swaps?.[0]?.indexes?.[0]
  if (swapped) return ledger.ownerOfIndex(swapped)
  const filter = /indexUids=([^&]+)/.exec(task.details?.originalFilter ?? '')
  return filter ? ledger.ownerOfIndex(filter[1]!) : undefined
}

/**
 * Verify one round. `snapshot`: each index as read right after the restart; `records`: the clients' records of
 * this round. Returns the failures (empty when everything holds).
 */
export async function verifyRound(url: string, dbPath: string, ledger: Ledger, records: ClientRecord[], snapshot: Map<string, Observed>): Promise<string[]> {
  const failures: string[] = []
  // Every task up to the last round's highest uid was verified then; this round's all lie above it.
  const tasks = await tasksAfter(url, ledger.maxUid)
  const byUid = new Map<number, any>()
  for (const t of tasks) {
    if (byUid.has(t.uid)) failures.push(`task ${t.uid} listed twice`)
    byUid.set(t.uid, t)
  }
  const previousMax = ledger.maxUid
  // This round's operations per client, by uid.
  const round = new Map<number, Map<number, Operation>>()
  for (const o of ledger.owners) round.set(o.client, new Map())
  records.forEach((rec, client) => {
    for (const ack of rec.acknowledged) {
      if (ack.uid <= previousMax) failures.push(`uid went back: ${ack.uid} acknowledged after uid ${previousMax} was seen`)
      const task = byUid.get(ack.uid)
      if (!task) { failures.push(`acknowledged task ${ack.uid} (${ack.op.kind}) is lost`); continue }
      if (task.type !== taskType(ack.op)) failures.push(`task ${ack.uid} is a ${task.type}, acknowledged as ${taskType(ack.op)}`)
      const index = 'index' in ack.op ? ack.op.index : null
      // A swap renames the index in the earlier tasks of the pair (as Meilisearch rewrites them): either name will do.
      const names = index === null ? [] : ledger.ownerOfIndex(index)?.indexes ?? [index]
      if (index !== null && ack.op.kind !== 'cancel' && !names.includes(task.indexUid)) failures.push(`task ${ack.uid} names index ${task.indexUid}, acknowledged for ${index}`)
      round.get(client)!.set(ack.uid, ack.op)
      ledger.seen.add(ack.uid)
    }
  })
  // Tasks nobody was acknowledged: each must be a client's unanswered request.
  for (const t of tasks) {
    if (ledger.seen.has(t.uid)) continue
    const owner = ownerOfTask(ledger, t)
    const rec = owner ? records[owner.client] : undefined
    const op = rec?.inFlight
    if (!owner || !rec || !op || taskType(op) !== t.type) { failures.push(`task ${t.uid} (${t.type} on ${t.indexUid}) was never requested: a phantom or duplicate`); ledger.seen.add(t.uid); continue }
    rec.inFlight = null
    ledger.recoveredInFlight++
    ledger.seen.add(t.uid)
    round.get(owner.client)!.set(t.uid, op)
  }
  for (const t of tasks) {
    if (!['succeeded', 'failed', 'canceled'].includes(t.status)) failures.push(`task ${t.uid} is still ${t.status}`)
    ledger.maxUid = Math.max(ledger.maxUid, t.uid)
  }
  // Replay: a prefix of this round's succeeded tasks explains the snapshot, all of them the final state.
  for (const owner of ledger.owners) {
    const state = ledger.states.get(owner.client)!
    const ops = [...round.get(owner.client)!].sort((a, b) => a[0] - b[0])
    const succeeded: [number, Operation][] = []
    for (const [uid, op] of ops) {
      const task = byUid.get(uid)
      if (task?.status !== 'succeeded') continue
      if (op.kind === 'add' && task.details?.receivedDocuments !== op.docs.length) failures.push(`task ${uid} received ${task.details?.receivedDocuments} documents of ${op.docs.length}`)
      succeeded.push([uid, op])
    }
    for (const index of owner.indexes) {
      const seen = snapshot.get(index)
      if (!seen) continue
      let probe = new Map([...state].map(([k, v]) => [k, cloneIndex(v)]))
      let prefixFound = matches(probe.get(index)!, seen)
      for (const [, op] of succeeded) {
        if (prefixFound) break
        apply(probe, op)
        prefixFound = matches(probe.get(index)!, seen)
      }
      if (!prefixFound) failures.push(`index ${index} after the restart matches no prefix of its ${succeeded.length} succeeded tasks (half a batch applied, or an acknowledged write lost)`)
      probe = new Map()
    }
    for (const [, op] of succeeded) apply(state, op)
    ledger.tasksVerified += ops.length
    for (const index of owner.indexes) failures.push(...await checkIndex(url, index, state.get(index)!))
  }
  const staged = payloadFiles(dbPath)
  if (staged.length > 0) failures.push(`payload files left with every task finished: ${staged.slice(0, 5).join(', ')}`)
  return failures
}

/** The drained server's index against the model: documents, settings, a search, a filter and facet counts. */
async function checkIndex(url: string, index: string, model: IndexState): Promise<string[]> {
  const out: string[] = []
  const now = await observe(url, index)
  if (!matches(model, now)) {
    out.push(`index ${index} differs from the model: ${now.exists ? '' : 'missing, '}${model.docs.size} documents expected, settings ${JSON.stringify([model.searchable, model.filterable])} vs ${JSON.stringify([now.searchable, now.filterable])}`)
    return out
  }
  if (!now.exists) return out
  const search = await postJson(`${url}/indexes/${index}/search`, { q: PROBE_WORD, limit: 0 })
  if (search.body?.estimatedTotalHits !== probeCount(model)) out.push(`index ${index}: search "${PROBE_WORD}" finds ${search.body?.estimatedTotalHits}, the model ${probeCount(model)}`)
  if (model.filterable.includes('n')) {
    const expected = [...model.docs.values()].filter((d) => typeof d.n === 'number' && d.n < 50).length
    const filtered = await postJson(`${url}/indexes/${index}/search`, { filter: 'n < 50', limit: 0 })
    if (filtered.body?.estimatedTotalHits !== expected) out.push(`index ${index}: filter n < 50 finds ${filtered.body?.estimatedTotalHits}, the model ${expected}`)
  }
  if (model.filterable.includes('tag')) {
    const facets = await postJson(`${url}/indexes/${index}/search`, { facets: ['tag'], limit: 0 })
    const got = JSON.stringify(Object.entries(facets.body?.facetDistribution?.tag ?? {}).sort())
    const want = JSON.stringify(Object.entries(tagCounts(model)).sort())
    if (got !== want) out.push(`index ${index}: facet counts of tag ${got}, the model ${want}`)
  }
  return out
}

function payloadFiles(dbPath: string): string[] {
  try {
    return readdirSync(join(dbPath, 'payloads'))
  } catch {
    return []
  }
}

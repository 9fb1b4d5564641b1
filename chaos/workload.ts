/**
 * The crash storm's clients: each owns its indexes and sends one write at a time (document additions and updates
 * in JSON, NDJSON and CSV, deletions by id and by filter, settings changes that reindex, index deletions, swaps,
 * cancelations), recording each `202` and the request left without an answer when the server died.
 */
import { seededRandom } from '../test/helpers/random.js'
import { VOCABULARY, type Doc, type Format, type Operation } from './model.js'

type Random = ReturnType<typeof seededRandom>

/** A write the server acknowledged with a `202`. */
export interface Acknowledged { uid: number; op: Operation; client: number }

export interface ClientRecord {
  acknowledged: Acknowledged[]
  /** The write sent when the server died, still unanswered: its task may or may not exist. */
  inFlight: Operation | null
  /** Writes answered with an error status (no task). */
  refused: number
}

/** Ids per index: small enough that additions replace and update earlier documents. */
const ID_SPACE = 400

const pick = <T>(r: Random, list: readonly T[]): T => list[r.int(list.length)]!

function words(r: Random, n: number): string {
  return Array.from({ length: n }, () => pick(r, VOCABULARY)).join(' ')
}

function makeDoc(r: Random, partial: boolean): Doc {
  const id = r.int(ID_SPACE)
  if (partial) return { id, n: r.int(100) }
  return { id, title: words(r, 1 + r.int(3)), body: words(r, 3 + r.int(8)), n: r.int(100), tag: `t${r.int(6)}` }
}

const SEARCHABLE = [['*'], ['title'], ['title', 'body'], ['body', 'title']]
const FILTERABLE = [['n'], ['n', 'tag'], ['tag', 'n']]

/** The next operation of a client owning `indexes` (two of them for the client that swaps). */
export function nextOperation(r: Random, indexes: readonly string[]): Operation {
  const index = pick(r, indexes)
  const roll = r.int(100)
  if (roll < 45) {
    const format: Format = pick(r, ['json', 'ndjson', 'csv'] as const)
    const replace = format === 'csv' || r.int(2) === 0
    const docs = Array.from({ length: 1 + r.int(r.int(4) === 0 ? 300 : 30) }, () => makeDoc(r, !replace))
    // One document per id in a payload: which of two wins is not what is tested here.
    // CSV values are strings unless typed: its ids are stored as strings.
    const unique = [...new Map(docs.map((d) => [String(d.id), format === 'csv' ? { ...d, id: String(d.id) } : d])).values()]
    return { kind: 'add', index, format, docs: unique, replace }
  }
  if (roll < 55) return { kind: 'deleteIds', index, ids: Array.from({ length: 1 + r.int(20) }, () => String(r.int(ID_SPACE))) }
  if (roll < 62) return { kind: 'deleteFilter', index, below: r.int(30) }
  if (roll < 80) return { kind: 'settings', index, searchable: pick(r, SEARCHABLE), filterable: pick(r, FILTERABLE) }
  if (roll < 84) return { kind: 'deleteIndex', index }
  if (roll < 92 && indexes.length === 2) return { kind: 'swap', indexes: [indexes[0]!, indexes[1]!] }
  return { kind: 'cancel', index }
}

function csv(docs: Doc[]): string {
  return ['id,title,body,n:number,tag', ...docs.map((d) => `${d.id},${d.title},${d.body},${d.n},${d.tag}`)].join('\n')
}

/** The HTTP request of an operation. */
export function request(op: Operation): { method: string; path: string; body?: string; type?: string } {
  switch (op.kind) {
    case 'add': {
      const path = `/indexes/${op.index}/documents?primaryKey=id`
      const method = op.replace ? 'POST' : 'PUT'
      if (op.format === 'json') return { method, path, body: JSON.stringify(op.docs), type: 'application/json' }
      if (op.format === 'ndjson') return { method, path, body: op.docs.map((d) => JSON.stringify(d)).join('\n'), type: 'application/x-ndjson' }
      return { method, path, body: csv(op.docs), type: 'text/csv' }
    }
    case 'deleteIds': return { method: 'POST', path: `/indexes/${op.index}/documents/delete-batch`, body: JSON.stringify(op.ids), type: 'application/json' }
    case 'deleteFilter': return { method: 'POST', path: `/indexes/${op.index}/documents/delete`, body: JSON.stringify({ filter: `n < ${op.below}` }), type: 'application/json' }
    case 'settings': return { method: 'PATCH', path: `/indexes/${op.index}/settings`, body: JSON.stringify({ searchableAttributes: op.searchable, filterableAttributes: op.filterable }), type: 'application/json' }
    case 'deleteIndex': return { method: 'DELETE', path: `/indexes/${op.index}` }
    case 'swap': return { method: 'POST', path: '/swap-indexes', body: JSON.stringify([{ indexes: op.indexes }]), type: 'application/json' }
    case 'cancel': return { method: 'POST', path: `/tasks/cancel?statuses=enqueued,processing&indexUids=${op.index}` }
  }
}

/** Run a client until `stop()` says so or the server stops answering. */
export async function runClient(url: string, client: number, indexes: readonly string[], r: Random, record: ClientRecord, stop: () => boolean): Promise<void> {
  while (!stop()) {
    const op = nextOperation(r, indexes)
    const req = request(op)
    record.inFlight = op
    let res: Response
    try {
      res = await fetch(url + req.path, { method: req.method, body: req.body, headers: req.type ? { 'content-type': req.type } : {} })
    } catch {
      return // the server died: `inFlight` may or may not have been registered
    }
    let body: any
    try {
      body = await res.json()
    } catch {
      return // died while answering: the status line was sent, so a 202 may stand; keep it in flight
    }
    record.inFlight = null
    // A registered task answers 202 (200 for a cancelation, as in Meilisearch).
    if ((res.status === 202 || res.status === 200) && typeof body?.taskUid === 'number') record.acknowledged.push({ uid: body.taskUid, op, client })
    else record.refused++
  }
}

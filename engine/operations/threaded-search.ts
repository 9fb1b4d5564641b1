/**
 * The HTTP thread's side of search threads (search/threads.ts): which searches go to a thread, the view they are
 * handed (made once per published state of an index, shared by every search until the next publish), what the
 * thread needs to read the hits' documents itself, the documents read here when it cannot, and the search run again
 * when the documents changed under it (three times, then here).
 * Semantic and hybrid searches, `retrieveVectors`, `_shard` filters and filters a thread cannot evaluate stay here.
 */
import { performance } from 'node:perf_hooks'
import type { Engine } from '../engine.js'
import { TesseraError } from '../errors/index.js'
import { facetIndexViewSteps } from '../facets/index.js'
import { inTurns } from '../util/turns.js'
import { parseFilter } from '../filter/index.js'
import type { JsonObject } from '../json/value.js'
import { searchKind } from '../search/request.js'
import type { DocState } from '../documents/store.js'
import type { DocumentReader, SourceView, ThreadJob, ThreadWork } from '../search/threads.js'
import { namesShard } from './shard-facet.js'
import { loadedIndex } from './published-index.js'
import { packTexts } from '../storage/shared-reads.js'

/** Runs of a search on threads before it runs here (each run after the first: its documents changed meanwhile). */
const THREAD_RUNS = 3

const objectIds = new WeakMap<object, number>()
let lastObjectId = 0
const idOf = (o: object): number => {
  let id = objectIds.get(o)
  if (id === undefined) objectIds.set(o, (id = ++lastObjectId))
  return id
}

/** The latest view handed out per engine and index. */
const heldViews = new WeakMap<Engine, Map<number, { serial: string; view: SourceView }>>()

/**
 * The answer of a search run on a thread; null: it runs on the HTTP thread (no threads, or one it needs). Its
 * `processingTimeMs` and `searchCutoffMs` budget count from when a thread takes it (workers/search-pool.ts), not
 * from its wait for a free thread, as Meilisearch's count from when a search holds its permit.
 */
export async function threadedSearch(engine: Engine, uid: string, work: ThreadWork): Promise<JsonObject | Uint8Array | null> {
  const threads = engine.searchThreads
  if (!threads || !onThread(work)) return null
  for (let run = 0; run < THREAD_RUNS; run++) {
    const { indexId, serial, view, state } = await publishedView(engine, uid)
    const read: DocumentReader = (docids) => {
      if (engine.documents.state(indexId) !== state) return null
      return packTexts(engine.documents.getManyStored(indexId, docids))
    }
    const documents = sharedDocuments(engine, indexId, state)
    const answer = await threads.run({ indexId, serial, view, work, ...(documents ? { documents } : {}) }, read)
    if ('response' in answer) return answer.response
    if ('serialized' in answer) return answer.serialized
    if ('error' in answer) throw new TesseraError(answer.error.code, answer.error.message, answer.error.status)
    if ('failure' in answer) throw new Error(answer.failure)
    if ('httpThread' in answer) return null
  }
  return null
}

/**
 * The views handed out for an engine; made with its first threaded search. An index's view is dropped, here and on
 * the threads, when the catalog publishes its deletion (a view otherwise keeps the index's memory alive).
 */
function heldViewsOf(engine: Engine): Map<number, { serial: string; view: SourceView }> {
  let held = heldViews.get(engine)
  if (held) return held
  const views = (held = new Map())
  heldViews.set(engine, views)
  engine.catalog.onDropped((ids) => {
    for (const indexId of ids) {
      if (!views.delete(indexId)) continue
      engine.searchThreads?.forget(indexId)
    }
  })
  return views
}

/**
 * What the thread needs to read the documents of `state` itself, taken in the tick `state` is known to be the
 * published one: the index's documents epoch then says whether RocksDB holds exactly those documents (even, no
 * commit to them in flight), and the thread trusts its read only while the epoch stays that (storage/read-fence.ts).
 */
function sharedDocuments(engine: Engine, indexId: number, state: DocState): ThreadJob['documents'] | null {
  const reads = engine.searchThreadReads ? engine.store.sharedReads : null
  if (!reads || engine.documents.state(indexId) !== state) return null
  return { ...reads, epoch: engine.store.fence.epoch(indexId) }
}

function onThread(work: ThreadWork): boolean {
  const query = work.kind === 'search' ? work.query : work.request.search
  if (work.kind === 'search' && (searchKind(query) !== 'keyword' || query.retrieveVectors)) return false
  // `_shard` is computed from the primary keys here (shard-facet.ts). A filter that does not parse fails on the
  // thread, in the order the search checks its parameters. Only a filter whose text names `_shard` is parsed here
  // (the thread parses it anyway).
  if (query.filter === null || query.filter === undefined || !JSON.stringify(query.filter).includes('_shard')) return true
  try {
    const expr = parseFilter(query.filter, 'invalid_search_filter')
    return !(expr && namesShard(expr))
  } catch {
    return true
  }
}

/** The index's published views as one consistent state (published-index.ts), and what identifies it. */
async function publishedView(engine: Engine, uid: string): Promise<{ indexId: number; serial: string; view: SourceView; state: DocState }> {
  const { index: { meta, settings, state }, inverted, facets } = await loadedIndex(engine, uid)
  const containsFilter = engine.features.isEnabled('containsFilter')
  const serial = [uid, idOf(inverted), inverted.version, idOf(state), idOf(facets), idOf(settings), containsFilter].join('.')
  const held = heldViewsOf(engine)
  let current = held.get(meta.id)
  if (current?.serial !== serial) {
    // The inverted index's view is taken in this turn (it is the view of its current version); the facet fields a
    // batch changed are frozen in turns, requests served between them (a published field is never changed).
    const invertedView = inverted.view()
    const fieldNames = [...state.fields.keys()]
    const facetsView = await inTurns(facetIndexViewSteps(facets))
    current = {
      serial,
      view: { uid, indexId: meta.id, settings, inverted: invertedView, liveBytes: state.liveBytes, fieldNames, facets: facetsView, containsFilter },
    }
    // Deleted meanwhile: its view serves this search only (the catalog already told the threads to forget it).
    if (engine.catalog.get(uid)?.id === meta.id) held.set(meta.id, current)
  }
  return { indexId: meta.id, serial, view: current.view, state }
}

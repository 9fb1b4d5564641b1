/**
 * What a search thread does with a job (workers/search-thread.ts is the thin entry around it): take the view it
 * was handed, or the one it holds, run the keyword or facet search on it, and answer plain data.
 */
import { rankedKeywordSearch } from './keyword.js'
import { serializeResponse } from './stored-hits.js'
import { facetSearchOn } from './facet-search.js'
import { NeedsHttpThread, StaleView, sourceFromView } from './source-view.js'
import type { FieldFacets } from '../facets/index.js'
import type { SearchSource } from './source.js'
import type { DocumentReader, SourceView, ThreadAnswer, ThreadJob, ThreadWork } from './threads.js'
import { TesseraError } from '../errors/index.js'

/** A job as a thread receives it: the view only when the thread does not hold `serial` yet. */
export interface ThreadMessage {
  id: number
  indexId: number
  serial: string
  view?: SourceView
  work: ThreadWork
  /** When the thread took the search (the common clock: `performance.timeOrigin + performance.now()`). */
  startedAt: number
  documents?: ThreadJob['documents']
}

/** What a thread holds per index: the latest view it was handed, and the facet fields rebuilt from its views. */
export interface HeldSource {
  serial: string
  source: SearchSource
  facetFields: Map<number, FieldFacets>
}

/** `read` is the current job's: the held source reads through the reader its search is given. */
export function runOnThread(held: Map<number, HeldSource>, message: ThreadMessage, read: { current: DocumentReader }): ThreadAnswer {
  // `searchCutoffMs` and `processingTimeMs` count from when the pool handed the search to this thread (its clock).
  const start = message.startedAt - performance.timeOrigin
  let entry = held.get(message.indexId)
  if (entry?.serial !== message.serial) {
    if (!message.view) return { failure: `search thread: no view ${message.serial} of index ${message.indexId}` }
    const facetFields = entry?.facetFields ?? new Map<number, FieldFacets>()
    entry = { serial: message.serial, source: sourceFromView(message.view, facetFields, (docids) => read.current(docids)), facetFields }
    held.set(message.indexId, entry)
  }
  try {
    const { work } = message
    if (work.kind === 'search' && work.serialized) return { serialized: serializeResponse(rankedKeywordSearch(entry.source, work.query, undefined, start, { storedHits: true }).response) }
    if (work.kind === 'search') return { response: rankedKeywordSearch(entry.source, work.query, undefined, start).response }
    return { response: facetSearchOn(entry.source, work.request, start) as never }
  } catch (err) {
    if (err instanceof StaleView) return { stale: true }
    if (err instanceof NeedsHttpThread) return { httpThread: true }
    if (err instanceof TesseraError) return { error: { code: err.code, message: err.message, status: err.status } }
    return { failure: err instanceof Error ? err.stack ?? err.message : String(err) }
  }
}

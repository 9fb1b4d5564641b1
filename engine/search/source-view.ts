/**
 * A search thread's side of search threads (threads.ts): the search source over a view it was handed, and the
 * signals that send a search back (the documents changed under it; it needs the HTTP thread's vectors or a scan of
 * documents).
 */
import { InvertedIndex } from '../inverted/index.js'
import { facetIndexFromView, type FieldFacets } from '../facets/index.js'
import { evaluateFilter } from '../facets/filter.js'
import { decodeDocument } from '../documents/prepare.js'
import { frozenView } from '../util/frozen-bitmap.js'
import type { SearchSource } from './source.js'
import type { DocumentReader, SourceView } from './threads.js'

/** The hits' documents changed since the search's view was published: it runs again on the new view. */
export class StaleView extends Error {}

/** A filter condition only the HTTP thread can evaluate (`_vectors`, or one that scans documents). */
export class NeedsHttpThread extends Error {}

/**
 * The source a thread searches over a view. `facetFields`: the thread's facet fields rebuilt from earlier views of
 * the index (kept across views while unchanged; see facets/shared.ts).
 */
export function sourceFromView(view: SourceView, facetFields: Map<number, FieldFacets>, read: DocumentReader): SearchSource {
  const live = frozenView(view.liveBytes)
  const facets = facetIndexFromView(view.facets, facetFields)
  return {
    uid: view.uid,
    settings: view.settings,
    inverted: InvertedIndex.fromView(view.inverted),
    live,
    fetch(docids) {
      return this.fetchStored(docids).map(decodeDocument)
    },
    fetchStored(docids) {
      // No hits to show (`limit: 0`, nothing matched): no turn of the HTTP thread.
      if (docids.length === 0) return []
      const found = read(docids)
      if (!found) throw new StaleView()
      const { bytes, ends } = found
      return Array.from(ends, (end, k) => bytes.subarray(k === 0 ? 0 : ends[k - 1]!, end))
    },
    fieldNames: () => view.fieldNames,
    facets,
    filter: (expr) => evaluateFilter(expr, facets, live, () => { throw new NeedsHttpThread() }),
    containsFilter: view.containsFilter,
  }
}

/**
 * Facet indexes: what filters, sort, distinct, facet distributions and facet search read.
 *
 * For every faceted attribute path (filterable, sortable, the distinct attribute and the fields of custom
 * `attr:asc|desc` ranking rules; dot notation reaches nested fields, arrays are flattened), an index keeps:
 * - the documents holding the path at all (`exists`), holding `null` there, holding an empty value there;
 * - normalized string → documents (with an original spelling for display), number → documents.
 * `_geo` points are kept per document when `_geo` is filterable or sortable.
 *
 * The same facts as the document-at-a-time reference evaluator (`filter/evaluate.ts`), so a filter gives the same
 * documents either way (tested against each other on random documents and expressions).
 *
 * Views are immutable: a batch edits a `FacetDraft` (copy on write: each field, value bitmap and the geo map is
 * copied the first time the batch changes it) and `publish` swaps the view in one step, so a search sees the old
 * or the new facets, never a mix. Facets are derived from the stored documents: an index's view is built from
 * them when first needed (and when the faceted set of a settings change differs), then kept up to date by
 * batches, which take out a replaced or deleted document's old values and add the new ones.
 *
 * Files: config.ts (which paths are faceted), field-facets.ts (one path's facets) with range-unions.ts, view.ts (a
 * published view), draft.ts (a batch's edit); this file: the store of the views.
 */
import type { JsonObject } from '../json/value.js'
import { hasFacets, type FacetConfig } from './config.js'
import { FacetDraft } from './draft.js'
import { FacetIndex } from './view.js'

export { customRule, facetConfig, hasFacets, type FacetConfig } from './config.js'
export { FieldFacets, MISSING_RANK, type SortRanks, type StringFacet, type ValueOrdinals } from './field-facets.js'
export { RangeUnions } from './range-unions.js'
export { FacetDraft } from './draft.js'
export { FacetIndex } from './view.js'
export { facetIndexFromView, facetIndexView, facetIndexViewSteps, type FacetIndexView } from './shared.js'

type Json = JsonObject

/** What the facet store reads: the published documents of an index. */
export interface FacetSource {
  /** Every live document of the published state, with its internal id. */
  scan(indexId: number): AsyncIterable<[number, Json]>
  /** Changes whenever a batch publishes the index's documents. */
  version(indexId: number): unknown
}

/**
 * The facet views of the indexes, by internal index id (built when first needed). A build reads every document
 * of the published state; if a batch publishes the index meanwhile, the build starts over. So that a build
 * finishes under a steady stream of writes, the scheduler waits for the builds of an index (`settled`) before it
 * starts a batch on it: at most the batch already running when the build started can make it start over, once.
 */
export class FacetStore {
  private readonly views = new Map<number, Promise<FacetIndex>>()
  private readonly building = new Map<number, Promise<unknown>>()

  constructor(private readonly source: FacetSource) {}

  /** Resolves once no build of the index is under way (whether it succeeded or not). */
  async settled(indexId: number): Promise<void> {
    for (let build = this.building.get(indexId); build; build = this.building.get(indexId)) await build.catch(() => {})
  }

  /** The view of an index for the faceted set of its current settings. */
  async get(indexId: number, config: FacetConfig): Promise<FacetIndex> {
    const current = this.views.get(indexId)
    if (current) {
      const view = await current
      if (view.config.signature === config.signature) return view
    }
    const built = this.build(indexId, config)
    this.views.set(indexId, built)
    this.building.set(indexId, built)
    const settle = () => { if (this.building.get(indexId) === built) this.building.delete(indexId) }
    built.then(settle, () => { settle(); if (this.views.get(indexId) === built) this.views.delete(indexId) })
    return built
  }

  private async build(indexId: number, config: FacetConfig): Promise<FacetIndex> {
    if (!hasFacets(config)) return new FacetIndex(config)
    for (;;) {
      const version = this.source.version(indexId)
      const draft = new FacetDraft(new FacetIndex(config), config)
      for await (const [docid, doc] of this.source.scan(indexId)) draft.add(docid, doc)
      // A batch published while the documents were read: read them again.
      if (this.source.version(indexId) === version) return draft.result()
    }
  }

  /** Publish a committed draft's view. */
  publish(indexId: number, view: FacetIndex): void {
    this.views.set(indexId, Promise.resolve(view))
  }

  forget(indexId: number): void {
    this.views.delete(indexId)
  }
}

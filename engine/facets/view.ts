/**
 * A published facet view of one index: immutable once published (a batch edits a FacetDraft, see draft.ts).
 */
import type { FacetConfig } from './config.js'
import type { FieldFacets } from './field-facets.js'

/** The facets of one index (a published view). */
export class FacetIndex {
  constructor(
    readonly config: FacetConfig,
    readonly fields: Map<string, FieldFacets> = new Map(),
    readonly geo: Map<number, [number, number]> = new Map(),
  ) {}

  field(path: string): FieldFacets | undefined {
    return this.fields.get(path)
  }

  /** The faceted paths the index holds values of. */
  paths(): Iterable<string> {
    return this.fields.keys()
  }
}

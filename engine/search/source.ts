import type { Bitmap, InvertedIndex } from '../inverted/index.js'
import type { Settings } from '../settings/index.js'
import type { FacetIndex } from '../facets/index.js'
import type { FilterExpression } from '../filter/index.js'
import type { IndexVectors } from '../vectors/space.js'

/** What a search reads: the published views of one index. */
export interface SearchSource {
  uid: string
  settings: Settings
  inverted: InvertedIndex
  /** Live documents. */
  live: Bitmap
  /** Documents by internal id, in that order. */
  fetch(docids: number[]): Record<string, unknown>[]
  /** The same documents as stored: their JSON text (see search/stored-hits.ts). */
  fetchStored(docids: number[]): Uint8Array[]
  /** Top-level field names of the index's documents. */
  fieldNames(): Iterable<string>
  /** The facet index. */
  facets: FacetIndex
  /** Live documents matching a filter. */
  filter(expr: FilterExpression): Bitmap
  containsFilter: boolean
  /** The published vectors of the index, by embedder (none: an index searched without its vectors). */
  vectors?: IndexVectors
}

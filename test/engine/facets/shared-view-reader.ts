/** A worker thread that evaluates filters over a facet index handed to it in shared memory (shared-view.test.ts). */
import { parentPort } from 'node:worker_threads'
import roaring from 'roaring'
import { facetIndexFromView, type FacetIndexView } from '../../../engine/facets/index.js'
import { evaluateFilter } from '../../../engine/facets/filter.js'
import { parseFilter } from '../../../engine/filter/index.js'

parentPort!.on('message', (ask: { view: FacetIndexView; filters: string[]; live: number[] }) => {
  const index = facetIndexFromView(ask.view)
  const live = roaring.RoaringBitmap32.from(ask.live)
  const fallback = () => { throw new Error('no fallback expected') }
  parentPort!.postMessage(ask.filters.map((f) => evaluateFilter(parseFilter(f, 'invalid_search_filter')!, index, live, fallback).toArray()))
})

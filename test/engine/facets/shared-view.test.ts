/**
 * Facets handed to another thread (facets/shared.ts): an index rebuilt from its shared form answers filters, facet
 * distributions and sort ranks as the original does; a later draft leaves a handed-out view as it was; a field the
 * draft did not touch keeps its shared form (a thread does not rebuild it); a worker thread reads the same; the form
 * made in steps (between requests) is the form made at once.
 */
import t from 'tap'
import { Worker } from 'node:worker_threads'
import roaring from 'roaring'
import { parseFilter } from '../../../engine/filter/index.js'
import { FacetDraft, FacetIndex, facetConfig, facetIndexFromView, facetIndexView, facetIndexViewSteps } from '../../../engine/facets/index.js'
import { evaluateFilter } from '../../../engine/facets/filter.js'
import { facetDistribution } from '../../../engine/facets/distribution.js'
import { defaultSettings } from '../../../engine/settings/index.js'
import { siblingModule } from '../../../engine/util/module-path.js'
import { seededRandom } from '../../helpers/random.js'

const { RoaringBitmap32 } = roaring
const settings = { ...defaultSettings(), filterableAttributes: ['color', 'price', 'tags', '_geo'], sortableAttributes: ['price', 'color'] }
const config = facetConfig(settings)
const COLORS = ['Red', 'red ', 'Blue', 'vert', 'Été', 'ÉTÉ', '', 'x'.repeat(300), 'lone \ud800 surrogate', '😀 emoji', 'z'.repeat(9000)]
const FILTERS = ['color = red', 'color != blue', 'price > 3', 'price 2 TO 7', 'tags IN [a, c]', 'tags IS EMPTY', 'color IS NULL',
  'price NOT EXISTS', 'color STARTS WITH v', 'color > blue', '_geoRadius(1, 1, 300000)', 'price >= 1 AND (color = ete OR tags = b)']

function randomDoc(r: ReturnType<typeof seededRandom>): Record<string, unknown> {
  const doc: Record<string, unknown> = {}
  if (r.int(5) > 0) doc.color = r.int(8) === 0 ? null : COLORS[r.int(COLORS.length)]
  if (r.int(4) > 0) doc.price = r.int(3) === 0 ? [r.int(10), r.int(10) / 4] : r.int(10) - 1
  if (r.int(3) > 0) doc.tags = Array.from({ length: r.int(3) }, () => 'abcd'[r.int(4)])
  if (r.int(2) === 0) doc._geo = { lat: r.int(5) - 2 + r.float(), lng: r.int(5) - 2 + r.float() }
  return doc
}

function answers(index: FacetIndex, live: InstanceType<typeof RoaringBitmap32>) {
  const fallback = () => { throw new Error('no fallback expected') }
  return {
    filters: FILTERS.map((f) => evaluateFilter(parseFilter(f, 'invalid_search_filter')!, index, live, fallback).toArray()),
    facets: facetDistribution(['color', 'price', 'tags'], index, live, settings),
    ranks: ['price', 'color'].flatMap((p) => [true, false].map((asc) => { const r = index.field(p)!.sortRanks(asc); return [Array.from(r.ranks), r.values] })),
  }
}

t.test('an index rebuilt from its shared form answers as the original', async (t) => {
  const r = seededRandom(18)
  const docs = Array.from({ length: 400 }, () => randomDoc(r))
  const draft = new FacetDraft(new FacetIndex(config), config)
  docs.forEach((doc, d) => draft.add(d, doc))
  const index = draft.result()
  const live = RoaringBitmap32.from(Array.from({ length: 400 }, (_, d) => d))
  const expected = answers(index, live)
  const view = facetIndexView(index)
  t.ok(view.fields.every(([, f]) => f.bytes.buffer instanceof SharedArrayBuffer && f.text.buffer instanceof SharedArrayBuffer), 'bitmaps and strings in shared memory')
  t.same(answers(facetIndexFromView(view), live), expected, 'filters, distributions and sort ranks as the original')
  t.ok(expected.filters.some((ids) => ids.length > 0 && ids.length < 400), 'the filters select something')

  // The next batch changes `price` only: a view handed out before answers as before, `color` keeps its shared form.
  const next = new FacetDraft(index)
  for (let d = 0; d < 50; d++) next.remove(d, { price: docs[d]!.price ?? null })
  for (let d = 0; d < 50; d++) next.add(400 + d, { price: 100 + d })
  const published = next.result()
  const kept = new Map()
  const lazy = facetIndexFromView(view, kept)
  t.equal(kept.size, 0, 'no field is rebuilt before a search reads it')
  const rebuiltColor = lazy.field('color')
  t.equal(kept.size, 1, 'reading one field rebuilds that one')
  t.same([...lazy.paths()], [...index.paths()], 'every path is listed')
  const after = facetIndexView(published)
  const serial = (v: typeof view, path: string) => v.fields.find(([p]) => p === path)![1].serial
  t.equal(serial(after, 'color'), serial(view, 'color'), 'an unchanged field keeps its shared form')
  t.not(serial(after, 'price'), serial(view, 'price'), 'a changed one gets a new one')
  t.equal(facetIndexFromView(after, kept).field('color'), rebuiltColor, 'a thread keeps its rebuilt unchanged field')
  t.same(answers(facetIndexFromView(view), live), expected, 'the old view still answers as of its time')
  t.same(facetIndexFromView(after).field('price')!.numberKeys().slice(-2), [148, 149], 'the new view has the batch')
})

t.test('a worker thread reads the facets it was handed', async (t) => {
  const r = seededRandom(3)
  const draft = new FacetDraft(new FacetIndex(config), config)
  for (let d = 0; d < 200; d++) draft.add(d, randomDoc(r))
  const index = draft.result()
  const live = RoaringBitmap32.from(Array.from({ length: 200 }, (_, d) => d))
  const worker = new Worker(siblingModule(import.meta.url, './shared-view-reader'))
  t.teardown(() => worker.terminate())
  const answer = await new Promise<unknown>((resolve, reject) => {
    worker.once('message', resolve)
    worker.once('error', reject)
    worker.postMessage({ view: facetIndexView(index), filters: FILTERS, live: live.toArray() })
  })
  t.same(answer, answers(index, live).filters)
})

t.test('made in steps: the same shared form as made at once, with pauses between steps', async (t) => {
  const make = () => {
    const draft = new FacetDraft(new FacetIndex(config), config)
    for (let d = 0; d < 3000; d++) draft.add(d, { color: `value ${d}`, price: d % 700 })
    return draft.result()
  }
  const stepped = make()
  const steps = facetIndexViewSteps(stepped)
  let pauses = 0
  let r = steps.next()
  for (; !r.done; r = steps.next()) pauses++
  t.ok(pauses >= 4, `paused ${pauses} times`)
  const strip = (v: ReturnType<typeof facetIndexView>) => v.fields.map(([p, f]) => [p, { ...f, serial: 0 }])
  t.same(strip(r.value), strip(facetIndexView(make())), 'the same bytes, keys and strings')
  t.equal(facetIndexView(stepped).fields[0]![1], r.value.fields[0]![1], 'kept with the field: made once')
})

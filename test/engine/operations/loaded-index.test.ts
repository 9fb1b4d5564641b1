/**
 * A search on the HTTP thread whose views are still loading when a batch publishes (the first search after a start
 * loads the inverted index; a facet index may be built under writes): its views are read again, so it never pairs
 * the old documents' state (its live set, its fields) with the postings of the next publish. Without the second
 * read the views are read once and the first assertion fails.
 */
import t from 'tap'
import { Engine, search } from '../../../engine/index.js'
import { defaultSearchQuery } from '../../../engine/search/request.js'
import { addJson, dataDir, pooled, settle } from '../../helpers/engine.js'

const generation = (g: number) => Array.from({ length: 20 }, (_, i) => ({ id: i, gen: g, text: `common gen${g} word${i}` }))

t.test('a publish while a search loads its views: the search reads them again', async (t) => {
  const engine = await Engine.open({ path: dataDir(t), pool: pooled(t) })
  t.teardown(() => engine.close())
  engine.searchThreads = undefined
  await settle(engine, (await addJson(engine, 'a', generation(1))).taskUid)
  const indexId = engine.index('a').id

  // The first load of the inverted index waits until generation 2 is published.
  const inverted = engine.inverted
  const load = inverted.get.bind(inverted)
  let loads = 0
  let publishing = false
  inverted.get = async (id: number) => {
    if (publishing || id !== indexId) return load(id)
    loads++
    if (loads > 1) return load(id)
    const before = await load(id)
    publishing = true
    await settle(engine, (await addJson(engine, 'a', generation(2))).taskUid)
    publishing = false
    return before
  }
  t.teardown(() => { inverted.get = load })

  const answer = await search(engine, 'a', { ...defaultSearchQuery(), q: 'gen1', limit: 50 })
  t.equal(loads, 2, 'the views were read a second time')
  t.same(answer.hits, [], 'generation 1 is gone: no hit from its postings')
  const fresh = await search(engine, 'a', { ...defaultSearchQuery(), q: 'gen2', limit: 50 })
  t.same([...new Set((fresh.hits as { gen: number }[]).map((h) => h.gen))], [2])
})

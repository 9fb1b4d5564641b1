/**
 * A search on the search threads whose documents change before the thread reads them (a batch published between the
 * hand-over and the read): the HTTP thread refuses the read, and the search runs again on the new view; its answer
 * is the new documents', never the old ranking with the new documents. Also: the engine's answers with threads equal
 * its answers without; the threads read the documents themselves when they can.
 */
import t from 'tap'
import { Engine, deleteIndex, search } from '../../../engine/index.js'
import { defaultSearchQuery } from '../../../engine/search/request.js'
import type { SearchThreads } from '../../../engine/search/threads.js'
import { createSearchThreads } from '../../../workers/search-pool.js'
import { addJson, dataDir, pooled, settle } from '../../helpers/engine.js'

const generation = (g: number) => Array.from({ length: 30 }, (_, i) => ({ id: i, gen: g, text: `common gen${g} word${i}` }))

t.test('documents changed under a threaded search: it runs again on the new view', async (t) => {
  const engine = await Engine.open({ path: dataDir(t), pool: pooled(t) })
  t.teardown(() => engine.close())
  const threads = createSearchThreads({ threads: 1, queueSize: 10 })
  t.teardown(() => threads.close())
  await settle(engine, (await addJson(engine, 'a', generation(1))).taskUid)
  const query = { ...defaultSearchQuery(), q: 'common', limit: 30 }
  const strip = (r: Record<string, unknown>) => ({ ...r, processingTimeMs: 0 })
  const here = strip(await search(engine, 'a', query))

  engine.searchThreads = threads
  t.same(strip(await search(engine, 'a', query)), here, 'the same answer as on the HTTP thread')

  // The first run is handed the view of generation 1, then generation 2 is published before it runs.
  const runs: string[] = []
  const publishing: SearchThreads = {
    threads: 1,
    async run(job, read) {
      runs.push(job.serial)
      if (runs.length === 1) await settle(engine, (await addJson(engine, 'a', generation(2))).taskUid)
      return threads.run(job, read)
    },
    forget: (indexId) => threads.forget(indexId),
    close: () => threads.close(),
  }
  engine.searchThreads = publishing
  const answer = await search(engine, 'a', query)
  t.equal(runs.length, 2, 'the search ran twice')
  t.not(runs[1], runs[0], 'the second time on the newer view')
  t.same([...new Set((answer.hits as { gen: number }[]).map((h) => h.gen))], [2], 'its hits are the new documents')
  engine.searchThreads = undefined
  t.same(strip(answer), strip(await search(engine, 'a', query)), 'as the HTTP thread answers now')
})

t.test('a deleted index: the threads are told to drop its view when the deletion is published', async (t) => {
  const engine = await Engine.open({ path: dataDir(t), pool: pooled(t) })
  t.teardown(() => engine.close())
  const threads = createSearchThreads({ threads: 1, queueSize: 10 })
  t.teardown(() => threads.close())
  const forgotten: number[] = []
  engine.searchThreads = { threads: 1, run: (job, read) => threads.run(job, read), forget: (id) => { forgotten.push(id); threads.forget(id) }, close: () => threads.close() }
  await settle(engine, (await addJson(engine, 'a', generation(1))).taskUid)
  await settle(engine, (await addJson(engine, 'b', generation(1))).taskUid)
  const query = { ...defaultSearchQuery(), q: 'common' }
  await search(engine, 'a', query)
  await search(engine, 'b', query)
  const id = engine.index('a').id
  await settle(engine, (await deleteIndex(engine, 'a')).taskUid)
  t.same(forgotten, [id], 'told by the deletion, before any search')
  t.equal(((await search(engine, 'b', query)).hits as unknown[]).length, 20)
  t.same(forgotten, [id], 'a search of another index forgets nothing more')

  // The same uid again: a new index (a new internal id), whose documents the threads answer.
  await settle(engine, (await addJson(engine, 'a', generation(7))).taskUid)
  t.not(engine.index('a').id, id)
  const hits = (await search(engine, 'a', { ...query, limit: 30 })).hits as { gen: number }[]
  t.same([...new Set(hits.map((h) => h.gen))], [7], "the recreated index's documents")
  t.equal(hits.length, 30)
  await settle(engine, (await deleteIndex(engine, 'a')).taskUid)
  t.same(forgotten, [id, engine.catalog.nextUnusedId - 1], 'its deletion is told too')
})

t.test("the threads read the hits' documents themselves: no turn of this thread, the same answers", async (t) => {
  const engine = await Engine.open({ path: dataDir(t), pool: pooled(t) })
  t.teardown(() => engine.close())
  const threads = createSearchThreads({ threads: 1, queueSize: 10 })
  t.teardown(() => threads.close())
  let turns = 0
  engine.searchThreads = { threads: 1, run: (job, read) => threads.run(job, (docids) => { turns++; return read(docids) }), forget: (id) => threads.forget(id), close: () => threads.close() }
  await settle(engine, (await addJson(engine, 'a', generation(3))).taskUid)
  const query = { ...defaultSearchQuery(), q: 'common', limit: 30 }
  const strip = (r: Record<string, unknown>) => ({ ...r, processingTimeMs: 0 })
  const answer = await search(engine, 'a', query)
  t.equal(turns, 0, 'the thread read the documents itself')
  t.equal((answer.hits as unknown[]).length, 30)
  const own = strip(answer)
  engine.searchThreadReads = false
  t.same(strip(await search(engine, 'a', query)), own, 'the same answer as when the HTTP thread reads them')
  t.equal(turns, 1, 'which takes a turn of this thread')
  engine.searchThreads = undefined
  t.same(strip(await search(engine, 'a', query)), own, 'and as the HTTP thread searching alone')
})

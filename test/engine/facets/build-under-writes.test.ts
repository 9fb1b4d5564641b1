/** A facet index built from the documents under a steady stream of writes finishes (it used to start over at every publish). */
import t from 'tap'
import { Engine, getTask, search, updateSettings } from '../../../engine/index.js'
import { addJson, dataDir, pooled, settle } from '../../helpers/engine.js'
import { defaultSearchQuery } from '../../../engine/search/request.js'

const docs = (n: number, from = 0) => Array.from({ length: n }, (_, i) => ({ id: from + i, title: `title ${from + i} of many words to index`, body: 'lorem ipsum dolor sit amet '.repeat(4), n: (from + i) % 97 }))
const add = (engine: Engine, list: object[]) => addJson(engine, 'a', list)
/** Enough documents that one-document batches keep publishing while the facet index is built from them. */
const DOCUMENTS = 4000
/** How long the build may take before the test calls it stuck: a bound for a very busy machine, not a timing. */
const STUCK_MS = 240_000

t.test('a facet index built after a start finishes under a steady stream of writes', async (t) => {
  t.setTimeout(400_000)
  const path = dataDir(t)
  const pool = pooled(t)
  let engine = await Engine.open({ path, pool })
  await settle(engine, (await updateSettings(engine, 'a', { filterableAttributes: ['n'] })).taskUid)
  t.equal((await settle(engine, (await add(engine, docs(DOCUMENTS))).taskUid)).status, 'succeeded')
  await engine.close()
  // After a start the facet index is built from the stored documents when first needed.
  engine = await Engine.open({ path, pool })
  t.teardown(() => engine.close())
  let writing = true
  let registered = 0
  const writer = (async () => {
    for (let k = 0; writing; k++) {
      const task = await add(engine, docs(1, 100_000 + k))
      registered++
      t.equal((await settle(engine, task.taskUid)).status, 'succeeded')
    }
  })()
  // The first filtered search builds the facet index while one-document batches keep publishing.
  const query = { ...defaultSearchQuery(), filter: 'n = 3', limit: 0 }
  const answer = await Promise.race([
    search(engine, 'a', query),
    // Unref'd: a pending timer would keep the test's process alive for STUCK_MS after it passed.
    new Promise<'stuck'>((resolve) => setTimeout(() => resolve('stuck'), STUCK_MS).unref()),
  ])
  const registeredWhileBuilding = registered
  writing = false
  await writer
  t.not(answer, 'stuck', 'the build finished')
  t.ok(registeredWhileBuilding > 0, 'writes came in meanwhile (their batches wait for the build, then run)')
  if (answer !== 'stuck') t.ok((answer.estimatedTotalHits as number) >= Math.ceil((DOCUMENTS - 3) / 97), 'and it answers from every document')
})

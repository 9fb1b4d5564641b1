/** The published live documents frozen in shared memory: what another thread is handed, unchanged by later batches. */
import t from 'tap'
import { Engine, deleteDocuments } from '../../../engine/index.js'
import { frozenView } from '../../../engine/util/frozen-bitmap.js'
import { addJson, dataDir, pooled, settle } from '../../helpers/engine.js'

t.test('live documents are frozen in shared memory, and a published state never changes', async (t) => {
  const engine = await Engine.open({ path: dataDir(t), pool: pooled(t) })
  t.teardown(() => engine.close())
  await settle(engine, (await addJson(engine, 'docs', Array.from({ length: 500 }, (_, id) => ({ id, title: `doc ${id}` })))).taskUid)
  const id = engine.index('docs').id
  const before = engine.documents.state(id)
  t.ok(before.liveBytes.buffer instanceof SharedArrayBuffer, 'in shared memory')
  t.ok(before.live.isFrozen, 'read in place')
  t.equal(before.live.size, 500)
  const bytes = before.liveBytes.slice()
  t.same(frozenView(before.liveBytes).toArray(), before.live.toArray(), 'the bytes are the bitmap')

  await settle(engine, (await deleteDocuments(engine, 'docs', ['1', '2', '3'])).taskUid)
  await settle(engine, (await addJson(engine, 'docs', [{ id: 900, title: 'new' }])).taskUid)
  const after = engine.documents.state(id)
  t.equal(after.live.size, 498)
  t.equal(before.live.size, 500, 'the old state still has its documents')
  t.ok(Buffer.from(before.liveBytes).equals(Buffer.from(bytes)), 'its bytes unchanged')
  t.throws(() => after.live.add(7), 'the published set cannot be changed in place')
})

/**
 * Published settings keep their object while an index's stored settings are unchanged: a batch of another index (or
 * a document batch of this one) does not make a new one, so what is kept per settings object (facet configs,
 * tokenizers, a search thread's view) survives it; a settings change does make a new one.
 */
import t from 'tap'
import { Engine, updateSettings } from '../../../engine/index.js'
import { addJson, dataDir, pooled, settle } from '../../helpers/engine.js'

t.test('the same settings object across batches that leave them unchanged', async (t) => {
  const engine = await Engine.open({ path: dataDir(t), pool: pooled(t) })
  t.teardown(() => engine.close())
  await settle(engine, (await updateSettings(engine, 'a', { filterableAttributes: ['n'] })).taskUid)
  await settle(engine, (await addJson(engine, 'b', [{ id: 1 }])).taskUid)
  const id = engine.index('a').id
  const before = engine.settings.of(id)
  await settle(engine, (await addJson(engine, 'b', [{ id: 2 }])).taskUid)
  t.equal(engine.settings.of(id), before, 'after a batch of another index')
  await settle(engine, (await addJson(engine, 'a', [{ id: 1, n: 1 }])).taskUid)
  t.equal(engine.settings.of(id), before, 'after a document batch of the index')
  await settle(engine, (await updateSettings(engine, 'a', { filterableAttributes: ['n', 'm'] })).taskUid)
  const after = engine.settings.of(id)
  t.not(after, before, 'a settings change gives a new object')
  t.same(after.filterableAttributes, ['n', 'm'])
})

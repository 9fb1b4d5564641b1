import t from 'tap'
import { DroppedViews } from '../../workers/thread-garbage.js'

t.test('drops coalesce into one collection, and a drop after it schedules the next', async (t) => {
  let collections = 0
  let fired: () => void = () => {}
  const next = () => new Promise<void>((resolve) => { fired = resolve })
  const views = new DroppedViews(20, () => { collections++; fired() })
  // The collector's timers never keep a thread alive: this test's must.
  const alive = setInterval(() => {}, 1000)
  t.teardown(() => clearInterval(alive))
  let done = next()
  for (let i = 0; i < 5; i++) views.dropped()
  await done
  t.equal(collections, 1, 'five drops before the collection: one collection')
  done = next()
  views.dropped()
  views.dropped()
  await done
  t.equal(collections, 2, 'drops after a collection: one more')
})

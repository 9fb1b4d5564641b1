/**
 * `Store.checkpoint`: a copy of the whole database at one point of the commit order, taken while commits keep
 * coming, with edits applied to the copy only.
 */
import t from 'tap'
import { join } from 'node:path'
import { Store, keys } from '../../../engine/storage/index.js'
import { dataDir } from '../../helpers/engine.js'

t.test('a checkpoint taken under a stream of commits holds a prefix of them, whole', async (t) => {
  const path = dataDir(t)
  const store = await Store.open(path)
  t.teardown(() => store.close())
  // Each commit writes the same counter into two column families: a copy that is not one point in the commit order
  // would show them disagreeing, or a gap.
  const write = (i: number) => store.commit([
    { column: 'tasks', key: keys.u32(i), value: keys.u32(i) },
    { column: 'meta', key: keys.utf8(`n${String(i).padStart(6, '0')}`), value: keys.u32(i) },
  ])
  for (let i = 0; i < 200; i++) await write(i)
  const stream: Promise<void>[] = []
  let i = 200
  let streaming = true
  const pump = (async () => { while (streaming) { stream.push(write(i++)); await new Promise((r) => setImmediate(r)) } })()
  await new Promise((r) => setTimeout(r, 20))
  const copyDir = join(path, 'copy')
  await store.checkpoint(copyDir, [{ column: 'default', key: keys.utf8('edited'), value: keys.u32(1) }])
  streaming = false
  await pump
  await Promise.all(stream)
  t.ok(i > 200, `${i - 200} commits raced the checkpoint`)

  const copy = await Store.open(copyDir)
  t.teardown(() => copy.close())
  const tasks: number[] = []
  for await (const [k] of copy.scan('tasks')) tasks.push(keys.readU32(k))
  const meta: number[] = []
  for await (const [, v] of copy.scan('meta', { gte: keys.utf8('n'), lt: keys.utf8('o') })) meta.push(keys.readU32(v))
  t.ok(tasks.length >= 200, 'everything committed before the checkpoint is in the copy')
  t.same(tasks, Array.from({ length: tasks.length }, (_, k) => k), 'a prefix of the commits, without a gap')
  t.same(meta, tasks, 'both column families at the same point')
  t.ok(tasks.length < i, 'commits after the checkpoint are not in it')
  t.equal(copy.get('default', keys.utf8('edited'))?.readUInt32BE(), 1, 'edits apply to the copy')
  t.equal(store.get('default', keys.utf8('edited')), undefined, 'and not to the database')
  // The source goes on taking commits.
  await write(i)
  t.equal(store.get('tasks', keys.u32(i))?.readUInt32BE(), i)
})

t.test('a checkpoint into an existing database is refused', async (t) => {
  const path = dataDir(t)
  const store = await Store.open(path)
  t.teardown(() => store.close())
  const target = join(path, 'copy')
  await store.checkpoint(target)
  await t.rejects(store.checkpoint(target))
  // Commits were released again after the failure.
  await store.commit([{ column: 'tasks', key: keys.u32(1), value: keys.u32(1) }])
  t.ok(store.get('tasks', keys.u32(1)))
})

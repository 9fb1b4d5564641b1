/** What a shard move asks of each node: what it keeps, what it fetches from whom (engine/network/shard-moves.ts). */
import t from 'tap'
import { emptyNetwork, type Network } from '../../../engine/network/index.js'
import { planMove } from '../../../engine/network/shard-moves.js'
import { ShardSet } from '../../../engine/network/sharding.js'

const remote = (port: number) => ({ url: `http://127.0.0.1:${port}`, searchApiKey: null, writeApiKey: null })
const remotes = { a: remote(1), b: remote(2), c: remote(3) }
function networkOf(self: string, shards: Record<string, string[]>): Network {
  return { ...emptyNetwork(), self, remotes, shards: Object.fromEntries(Object.entries(shards).map(([s, r]) => [s, { remotes: r }])) }
}
const ids = Array.from({ length: 300 }, (_, i) => String(i))

t.test('owners change: the node that loses a shard drops it, the one that gains it fetches it from a continuous owner', async (t) => {
  const previous = { s1: ['a', 'b'], s2: ['b', 'c'] }
  const next = { s1: ['a', 'b'], s2: ['a', 'b'] }
  const a = planMove(networkOf('a', next), previous)
  t.same(a.fetches, [{ shard: 's2', from: 's2', donors: ['b'] }])
  const c = planMove(networkOf('c', next), previous)
  t.same(c.fetches, [])
  const shards = new ShardSet(['s1', 's2'])
  t.same(ids.filter((id) => c.keeps(id)), [], 'c keeps nothing: b holds s2 throughout')
  t.same(ids.filter((id) => a.keeps(id)).length, ids.length, 'a keeps s1 and s2')
  t.ok(ids.some((id) => shards.shardOf(id) === 's2'))
})

t.test('every owner replaced: the former owners keep the shard, the new ones fetch it from them', async (t) => {
  const previous = { s1: ['a'] }
  const next = { s1: ['b'] }
  t.same(planMove(networkOf('b', next), previous).fetches, [{ shard: 's1', from: 's1', donors: ['a'] }])
  const a = planMove(networkOf('a', next), previous)
  t.same(ids.filter((id) => !a.keeps(id)), [], 'a keeps its documents: nobody else had them')
})

t.test('a new shard: its owner fetches its documents from the owners of every former shard', async (t) => {
  const previous = { s1: ['a'], s2: ['b'] }
  const next = { s1: ['a'], s2: ['b'], s3: ['c'] }
  const c = planMove(networkOf('c', next), previous)
  t.same(c.fetches, [{ shard: 's3', from: 's1', donors: ['a'] }, { shard: 's3', from: 's2', donors: ['b'] }])
  const a = planMove(networkOf('a', next), previous)
  const before = new ShardSet(['s1', 's2'])
  const after = new ShardSet(['s1', 's2', 's3'])
  const leaving = ids.filter((id) => before.shardOf(id) === 's1' && after.shardOf(id) === 's3')
  t.ok(leaving.length > 0)
  t.ok(leaving.every((id) => a.keeps(id)), 'a keeps what moves to s3 (no node held it and owns s3): c fetches it from a')
  t.equal(a.previousShardOf(leaving[0]!), 's1')
})

t.test('shards set for the first time: nothing to fetch, the rest dropped', async (t) => {
  const b = planMove(networkOf('b', { s1: ['a'], s2: ['b'] }), {})
  t.same(b.fetches, [])
  const shards = new ShardSet(['s1', 's2'])
  t.same(ids.filter((id) => b.keeps(id)), ids.filter((id) => shards.shardOf(id) === 's2'))
})

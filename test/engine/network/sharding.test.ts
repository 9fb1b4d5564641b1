/** Sharding: MurmurHash3 as published, rendezvous choice of a document's shard, and which documents a node keeps. */
import t from 'tap'
import { ShardSet, documentOwnership, murmur3, shardsOwnedBy } from '../../../engine/network/sharding.js'
import { emptyNetwork } from '../../../engine/network/index.js'

const utf8 = (s: string) => Buffer.from(s, 'utf8')

t.test('MurmurHash3 x86 32 matches its reference values', async (t) => {
  t.equal(murmur3(utf8(''), 0), 0)
  t.equal(murmur3(utf8(''), 1), 0x514e28b7)
  t.equal(murmur3(utf8('test'), 0), 0xba6bd213)
  t.equal(murmur3(utf8('Hello, world!'), 0x9747b28c), 0x24884cba)
  t.equal(murmur3(utf8('aaaa'), 0x9747b28c), 0x5a97808a)
  t.equal(murmur3(utf8('abc'), 0), 0xb3dd93fa)
})

t.test('a document has one shard, chosen alike from its id in any order of the names', async (t) => {
  const shards = new ShardSet(['s3', 's1', 's2'])
  const reversed = new ShardSet(['s2', 's1', 's3'])
  const counts = new Map<string, number>()
  const differ: number[] = []
  for (let id = 0; id < 3000; id++) {
    const shard = shards.shardOf(id)!
    if (reversed.shardOf(String(id)) !== shard) differ.push(id)
    counts.set(shard, (counts.get(shard) ?? 0) + 1)
  }
  t.same(differ, [], 'the same shard whatever the order of the names, for 1 and "1" alike')
  t.same([...counts.keys()].sort(), ['s1', 's2', 's3'])
  for (const n of counts.values()) t.ok(n > 800 && n < 1200, `an even split (${n} of 3000)`)
  t.equal(new ShardSet([]).shardOf(1), null)
  // Rendezvous hashing: adding a shard only moves documents to it.
  const four = new ShardSet(['s1', 's2', 's3', 's4'])
  const moved: number[] = []
  for (let id = 0; id < 3000; id++) {
    const now = four.shardOf(id)!
    if (now !== 's4' && now !== shards.shardOf(id)) moved.push(id)
  }
  t.same(moved, [], 'no document moves between the shards that stay')
})

t.test('a node keeps the documents of the shards its self owns', async (t) => {
  const network = { ...emptyNetwork(), self: 'a', shards: { s1: { remotes: ['a', 'b'] }, s2: { remotes: ['b'] } } }
  t.same([...shardsOwnedBy(network, 'a')], ['s1'])
  const keeps = documentOwnership(network)!
  const shards = new ShardSet(['s1', 's2'])
  const wrong = Array.from({ length: 100 }, (_, id) => id).filter((id) => keeps(String(id)) !== (shards.shardOf(id) === 's1'))
  t.same(wrong, [])
  t.equal(documentOwnership(emptyNetwork()), null, 'no shards: every document')
  t.notOk(documentOwnership({ ...network, self: null })!('1'), 'a node without a name owns no shard')
})

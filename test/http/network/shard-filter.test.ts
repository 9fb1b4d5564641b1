/**
 * The reserved `_shard` filter attribute: each document's shard among the network's shards (by its primary key),
 * filterable without being declared in searches and document fetches, never shown in documents; a single node keeps
 * every document whatever its shards; filters that change documents refuse it.
 */
import t from 'tap'
import { call, serverFor, waitTask } from '../../helpers/server.js'
import { ShardSet } from '../../../engine/network/sharding.js'

t.test('_shard = name, _shard IN [...], _shard != name', async (t) => {
  const server = await serverFor(t)
  const features = await call(`${server.url}/experimental-features`, { method: 'PATCH', json: { network: true } })
  t.equal(features.status, 200, features.text)
  const network = await call(`${server.url}/network`, {
    method: 'PATCH',
    json: { self: 'a', remotes: { a: { url: server.url } }, shards: { s1: { remotes: ['a'] }, s2: { remotes: ['a'] }, s3: { remotes: ['a'] } } },
  })
  t.equal(network.status, 200, network.text)
  const docs = Array.from({ length: 60 }, (_, i) => ({ id: i % 2 === 0 ? i : `doc-${i}`, title: `title ${i}` }))
  const added = await call(`${server.url}/indexes/docs/documents`, { method: 'POST', json: docs })
  t.equal((await waitTask(server.url, added.body.taskUid)).status, 'succeeded')

  const shards = new ShardSet(['s1', 's2', 's3'])
  const idsOf = (...names: string[]) => docs.filter((d) => names.includes(shards.shardOf(d.id)!)).map((d) => String(d.id)).sort()
  const search = async (filter: unknown) => {
    const r = await call(`${server.url}/indexes/docs/search`, { method: 'POST', json: { filter, limit: 100 } })
    t.equal(r.status, 200, r.text)
    return r.body.hits.map((h: any) => String(h.id)).sort()
  }
  t.equal((await call(`${server.url}/indexes/docs/stats`)).body.numberOfDocuments, 60, 'a single node keeps every document')
  const s1 = await search('_shard = s1')
  t.ok(s1.length > 5 && s1.length < 40, `shard s1 holds some of the documents (${s1.length})`)
  t.same(s1, idsOf('s1'))
  t.same(await search('_shard = S2'), idsOf('s2'), 'shard names compare as facet strings')
  t.same(await search('_shard IN [s1, s3]'), idsOf('s1', 's3'))
  t.same(await search(['_shard != s1']), idsOf('s2', 's3'))
  t.same(await search('NOT _shard IN [s1, s2]'), idsOf('s3'))
  t.same(await search('_shard = nowhere'), [])

  const fetched = await call(`${server.url}/indexes/docs/documents/fetch`, { method: 'POST', json: { filter: '_shard = s2', limit: 100 } })
  t.equal(fetched.status, 200, fetched.text)
  t.same(fetched.body.results.map((d: any) => String(d.id)).sort(), idsOf('s2'))
  t.notOk(fetched.body.results.some((d: any) => '_shard' in d), 'documents do not show _shard')

  // Deleting by `_shard` is not supported: the attribute is not filterable there.
  const del = await call(`${server.url}/indexes/docs/documents/delete`, { method: 'POST', json: { filter: '_shard = s1' } })
  const task = del.status === 202 ? await waitTask(server.url, del.body.taskUid) : null
  t.equal(task?.status ?? del.status, task ? 'failed' : 400, del.text)
  t.equal((await call(`${server.url}/indexes/docs/stats`)).body.numberOfDocuments, 60, 'nothing deleted')
})

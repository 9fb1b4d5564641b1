// The query embedding cache: bounded, least recently used evicted first, disabled at 0, and used by embedQuery.
import t from 'tap'
import { createEmbedder, QueryCache } from '../../../engine/embedders/index.js'
import { EmbeddingServer } from '../../helpers/embedding-server.js'

const v = (x: number) => Float32Array.of(x)

t.test('least recently used entries go first', async (t) => {
  const cache = new QueryCache(2)
  cache.set('a', v(1))
  cache.set('b', v(2))
  t.same(cache.get('a'), v(1), 'reading a makes b the oldest')
  cache.set('c', v(3))
  t.equal(cache.get('b'), undefined)
  t.same(cache.get('a'), v(1))
  t.same(cache.get('c'), v(3))
  t.equal(cache.size, 2)
  cache.set('a', v(9))
  t.same(cache.get('a'), v(9), 'setting again replaces')
  t.equal(cache.size, 2)
})

t.test('capacity 0 caches nothing', async (t) => {
  const cache = new QueryCache(0)
  cache.set('a', v(1))
  t.equal(cache.get('a'), undefined)
  t.equal(cache.size, 0)
})

t.test('cached vectors cannot be altered by callers', async (t) => {
  const cache = new QueryCache(4)
  const first = await cache.through('q', async () => v(5))
  first[0] = 42
  const second = await cache.through('q', async () => v(6))
  t.same(second, v(5))
  second[0] = 43
  t.same(await cache.through('q', async () => v(7)), v(5))
})

t.test('embedQuery goes through the cache of its embedder', async (t) => {
  const server = await EmbeddingServer.start()
  t.teardown(() => server.close())
  const settings = { source: 'rest', url: `${server.url}/single`, dimensions: 8, request: { input: { content: '{{text}}' } }, response: { result: { vector: '{{embedding}}' } } }
  const cached = await createEmbedder('rest', settings as never, { allowedIpNetworks: 'any', queryCacheEntries: 2 })
  t.teardown(() => cached.close())
  for (const q of ['a', 'b', 'a', 'b', 'c', 'a']) await cached.embedQuery(q)
  t.same(server.requests.map((r) => (r.body as { input: { content: string } }).input.content), ['a', 'b', 'c', 'a'])
  await cached.embedDocuments(['a'])
  t.equal(server.requests.length, 5, 'documents never come from the cache')

  const uncached = await createEmbedder('rest', settings as never, { allowedIpNetworks: 'any' })
  t.teardown(() => uncached.close())
  await uncached.embedQuery('a')
  await uncached.embedQuery('a')
  t.equal(server.requests.length, 7, 'off by default')
})

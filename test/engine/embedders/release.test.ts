/**
 * The query embedders of the engine's thread follow the indexes: deleting an index closes what the registry held
 * for it, removing or changing an embedder closes the old one, and other indexes keep theirs. A closed remote
 * embedder's sockets are gone: the embedding server sees its connections close.
 */
import t from 'tap'
import { Engine, deleteIndex, search, updateSettings } from '../../../engine/index.js'
import { heldEmbedders } from '../../../engine/embedders/index.js'
import { defaultSearchQuery } from '../../../engine/search/request.js'
import { EmbeddingServer } from '../../helpers/embedding-server.js'
import { addJson, dataDir, pooled, settle } from '../../helpers/engine.js'

t.test('query embedders are closed with their index, or when their settings go', async (t) => {
  const remote = await EmbeddingServer.start()
  t.teardown(() => remote.close())
  // Documents are embedded in the pool's thread: this thread's registry holds the query embedders alone.
  const engine = await Engine.open({ path: dataDir(t), pool: pooled(t, 1), embedders: { allowedIpNetworks: ['127.0.0.0/8'] } })
  t.teardown(() => engine.close())
  const rest = (salt: string) => ({
    source: 'rest', url: `${remote.url}/single`, documentTemplate: `${salt}{{doc.title}}`,
    request: { input: { content: '{{text}}' } }, response: { result: { vector: '{{embedding}}' } },
  })
  const held = (uid: string) => heldEmbedders().filter((h) => h.indexUid === uid).map((h) => h.name).sort()
  // Embedders are released after the commit, which follows the moment the task shows as finished.
  const heldOnceReleased = async (uid: string, expected: string[]) => {
    for (let waited = 0; waited < 10_000 && JSON.stringify(held(uid)) !== JSON.stringify(expected); waited += 10) await new Promise((r) => setTimeout(r, 10))
    return held(uid)
  }
  const semantic = async (uid: string, embedder: string) => {
    const res = await search(engine, uid, { ...defaultSearchQuery(), q: 'dog', hybrid: { embedder, semanticRatio: 1 } })
    t.equal(res.semanticHitCount, 1, `${uid}: the query was embedded with ${embedder}`)
  }
  for (const uid of ['dogs', 'cats']) {
    t.equal((await settle(engine, (await updateSettings(engine, uid, { embedders: { one: rest(''), two: rest('2 ') } } as never)).taskUid)).status, 'succeeded')
    t.equal((await settle(engine, (await addJson(engine, uid, [{ id: 1, title: 'dog' }])).taskUid)).status, 'succeeded')
    await semantic(uid, 'one')
    await semantic(uid, 'two')
  }
  t.same(held('dogs'), ['one', 'two'])
  t.same(held('cats'), ['one', 'two'])

  const removed = await updateSettings(engine, 'dogs', { embedders: { two: null } } as never)
  t.equal((await settle(engine, removed.taskUid)).status, 'succeeded')
  t.same(await heldOnceReleased('dogs', ['one']), ['one'], 'a removed embedder is closed')

  const changed = await updateSettings(engine, 'dogs', { embedders: { one: { documentTemplate: 'changed {{doc.title}}' } } } as never)
  t.equal((await settle(engine, changed.taskUid)).status, 'succeeded')
  t.same(await heldOnceReleased('dogs', []), [], 'a changed embedder is closed (the next query builds the new one)')
  await semantic('dogs', 'one')
  t.same(held('dogs'), ['one'])

  const connections = remote.inFlight
  t.equal((await settle(engine, (await deleteIndex(engine, 'dogs')).taskUid)).status, 'succeeded')
  t.same(await heldOnceReleased('dogs', []), [], 'a deleted index leaves nothing in the registry')
  t.same(held('cats'), ['one', 'two'], 'other indexes keep theirs')
  t.equal(remote.inFlight, connections, 'no request left running')
})

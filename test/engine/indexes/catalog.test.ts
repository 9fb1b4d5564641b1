import t from 'tap'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Store } from '../../../engine/storage/index.js'
import { IndexCatalog } from '../../../engine/indexes/catalog.js'

t.test('drafts change nothing until published, and survive a reload once committed', async (t) => {
  const path = mkdtempSync(join(tmpdir(), 'tessera-catalog-'))
  t.teardown(() => rmSync(path, { recursive: true, force: true }))
  let store = await Store.open(path)
  let catalog = await IndexCatalog.load(store)

  const draft = catalog.draft()
  const made = draft.ensure('movies', 'id', 10)
  t.equal(made.created, true)
  t.same(draft.ensure('movies', 'other', 11), { meta: made.meta, created: false }, 'ensure returns the existing index')
  draft.create('books', null, 12)
  t.equal(catalog.has('movies'), false, 'the published catalog does not see the draft')
  await store.commit(draft.ops)
  catalog.publish(draft)
  t.same(catalog.list().map((m) => [m.uid, m.primaryKey]), [['books', null], ['movies', 'id']])

  const swap = catalog.draft()
  const movies = swap.get('movies')!
  const books = swap.get('books')!
  swap.put({ ...books, uid: 'movies' })
  swap.put({ ...movies, uid: 'books' })
  swap.delete('nothing')
  t.equal(catalog.get('movies')!.id, movies.id, 'still unchanged before publish')
  await store.commit(swap.ops)
  catalog.publish(swap)
  t.equal(catalog.get('movies')!.id, books.id)

  const drop = catalog.draft()
  drop.delete('books')
  drop.rename(catalog.get('movies')!, 'films', 20)
  t.same(drop.garbage, [movies.id], 'the deleted index data is marked for dropping')
  await store.commit(drop.ops)
  catalog.publish(drop)
  t.same(catalog.list().map((m) => m.uid), ['films'])

  await store.close()
  store = await Store.open(path)
  catalog = await IndexCatalog.load(store)
  t.same(catalog.list().map((m) => [m.uid, m.id]), [['films', books.id]])
  const next = catalog.draft().create('new', null, 30)
  t.ok(next.id > Math.max(movies.id, books.id), 'internal ids are never reused')
  await store.close()
})

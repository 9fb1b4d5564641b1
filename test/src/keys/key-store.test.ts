/**
 * src/keys/key-store.ts on a real RocksDB store: Meilisearch's four default keys (names, descriptions, actions,
 * listing order from `tests/auth/api_keys.rs`), values derived from the master key and never stored, creation,
 * update, deletion, look-ups by uid or value, and persistence across reopening (with another master key).
 */
import t from 'tap'
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { TesseraError } from '../../../engine/errors/index.js'
import { Store } from '../../../engine/storage/index.js'
import { KeyStore } from '../../../src/keys/key-store.js'

const dir = () => mkdtempSync(join(tmpdir(), 'tessera-keys-'))

function code(fn: () => unknown): string | undefined {
  try { fn() } catch (e) { if (e instanceof TesseraError) return `${e.code}: ${e.message}`; throw e }
  return undefined
}

async function codeOf(p: Promise<unknown>): Promise<string | undefined> {
  try { await p } catch (e) { if (e instanceof TesseraError) return `${e.code}: ${e.message}`; throw e }
  return undefined
}

/** Every file of the database directory, as one string (to look for a value in it). */
function allBytes(path: string): string {
  const out: string[] = []
  const walk = (p: string) => {
    for (const f of readdirSync(p)) {
      const full = join(p, f)
      if (statSync(full).isDirectory()) walk(full)
      else out.push(readFileSync(full).toString('latin1'))
    }
  }
  walk(path)
  return out.join('')
}

t.test('default keys, creation, look-ups, persistence', async (t) => {
  const path = dir()
  t.teardown(() => rmSync(path, { recursive: true, force: true }))
  let store = await Store.open(path)
  let keys = await KeyStore.open(store, 'MASTER_KEY')
  const defaults = keys.list()
  t.same(defaults.map((k) => k.name), ['Default Search API Key', 'Default Admin API Key', 'Default Read-Only Admin API Key', 'Default Chat API Key'], 'newest first')
  t.same(defaults.map((k) => k.actions), [['search'], ['*'], ['*.get', 'keys.get'], ['chatCompletions', 'search']])
  t.same(defaults.map((k) => k.description), [
    'Use it to search from the frontend',
    'Use it for anything that is not a search operation. Caution! Do not expose it on a public frontend',
    'Use it to read information across the whole database. Caution! Do not expose this key on a public frontend',
    'Use it to chat and search from the frontend',
  ])
  t.ok(defaults.every((k) => k.indexes.length === 1 && k.indexes[0] === '*' && k.expiresAt === null))

  const created = await keys.create({ uid: '4bc0887a-0e41-4f3b-935d-0c451dcee9c8', name: 'indexing', description: null, actions: ['documents.*'], indexes: ['products*'], expiresAt: null })
  const value = keys.valueOf(created.uid)
  t.equal(value, 'd9e776b8412f1db6974c9a5556b961c3559440b6588216f4ea5d9ed49f7c8f3c')
  t.ok(created.granted.has('documents.add') && !created.granted.has('search'), 'actions expanded')
  t.equal(keys.list()[0]!.uid, created.uid, 'the newest is listed first')
  t.equal(keys.findByValue(value)?.uid, created.uid, 'found by value')
  t.equal(keys.findByValue(value.toUpperCase())?.uid, created.uid, 'hex in any case, as Meilisearch decodes it')
  t.equal(keys.findByValue(value.slice(0, -1)), undefined)
  t.equal(keys.findByValue('MASTER_KEY'), undefined)
  t.equal(keys.resolve(created.uid).uid, created.uid)
  t.equal(keys.resolve(created.uid.replace(/-/g, '').toUpperCase()).uid, created.uid, 'any UUID form')
  t.equal(keys.resolve(value).uid, created.uid)
  t.equal(code(() => keys.resolve('d0552b41536279a0ad88bd595327b96f01176a60c2243e906c52ac02375f9bc4')), 'api_key_not_found: API key `d0552b41536279a0ad88bd595327b96f01176a60c2243e906c52ac02375f9bc4` not found.')
  t.equal(code(() => keys.resolve('00000000000000000000000000000000')), 'api_key_not_found: API key `00000000-0000-0000-0000-000000000000` not found.')
  t.equal(await codeOf(keys.create({ uid: created.uid, name: null, description: null, actions: ['search'], indexes: ['*'], expiresAt: null })),
    'api_key_already_exists: `uid` field value `4bc0887a-0e41-4f3b-935d-0c451dcee9c8` is already an existing API key.')

  const updated = await keys.update(created.uid, { description: 'Products', name: undefined })
  t.equal(updated.name, 'indexing', 'an absent field stays')
  t.equal(updated.description, 'Products')
  t.ok(updated.updatedAt > created.updatedAt && updated.createdAt === created.createdAt)
  t.equal((await keys.update(created.uid, { name: null })).name, null, 'null clears')
  t.notOk(allBytes(path).includes(value), 'the key\'s value is never written')

  const doomed = await keys.create({ uid: '00000000-0000-0000-0000-000000000000', name: null, description: null, actions: ['search'], indexes: ['dog'], expiresAt: null })
  const doomedValue = keys.valueOf(doomed.uid)
  await keys.delete(doomed.uid)
  t.equal(keys.findByValue(doomedValue), undefined, 'a deleted key is gone at once')
  t.equal(await codeOf(keys.delete(doomed.uid)), 'api_key_not_found: API key `00000000-0000-0000-0000-000000000000` not found.')

  await store.close()
  store = await Store.open(path)
  keys = await KeyStore.open(store, 'MASTER_KEY')
  t.equal(keys.list().length, 5, 'keys survive a reopen, and no second set of defaults is made')
  t.equal(keys.get(created.uid)?.description, 'Products')
  t.equal(keys.get(created.uid)?.name, null)
  t.equal(keys.findByValue(value)?.uid, created.uid)
  await store.close()

  store = await Store.open(path)
  keys = await KeyStore.open(store, 'ANOTHER_MASTER_KEY')
  t.equal(keys.findByValue(value), undefined, 'another master key: the old value no longer works')
  t.not(keys.valueOf(created.uid), value, 'and the key has a new value')
  t.equal(keys.findByValue(keys.valueOf(created.uid))?.uid, created.uid)
  await store.close()

  store = await Store.open(path)
  keys = await KeyStore.open(store, null)
  t.equal(keys.valueOf(created.uid), '', 'without a master key a key has no value')
  t.equal(keys.findByValue(value), undefined)
  await store.close()
})

t.test('no key left: the defaults come back at the next start', async (t) => {
  const path = dir()
  t.teardown(() => rmSync(path, { recursive: true, force: true }))
  let store = await Store.open(path)
  let keys = await KeyStore.open(store, null)
  t.equal(keys.list().length, 4, 'defaults are made without a master key too, as Meilisearch does')
  for (const k of keys.list()) await keys.delete(k.uid)
  t.equal(keys.list().length, 0)
  await store.close()
  store = await Store.open(path)
  keys = await KeyStore.open(store, 'MASTER_KEY')
  t.equal(keys.list().length, 4)
  await store.close()
})

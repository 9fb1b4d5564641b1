/**
 * Experimental features: defaults, patches (null leaves a switch alone), `require` messages and links, and
 * persistence in the storage `meta` column family across a reopen.
 */
import t, { type Test } from 'tap'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Store } from '../../../engine/storage/index.js'
import { TesseraError } from '../../../engine/errors/index.js'
import { Features, FEATURE_NAMES, FEATURE_ACTIONS } from '../../../engine/features/index.js'

const ALL_OFF = { metrics: false, logsRoute: false, editDocumentsByFunction: false, containsFilter: false, network: false, chatCompletions: false }

async function withStore(t: Test, fn: (path: string) => Promise<void>): Promise<void> {
  const path = mkdtempSync(join(tmpdir(), 'tessera-features-'))
  t.teardown(() => rmSync(path, { recursive: true, force: true }))
  await fn(path)
}

t.test('defaults: everything off, six visible fields', async (t) => {
  await withStore(t, async (path) => {
    const store = await Store.open(path)
    t.teardown(() => store.close())
    const features = await Features.load(store)
    t.same(features.view(), ALL_OFF)
    t.same(Object.keys(features.view()), ['metrics', 'logsRoute', 'editDocumentsByFunction', 'containsFilter', 'network', 'chatCompletions'])
    for (const name of FEATURE_NAMES) t.equal(features.isEnabled(name), false, name)
    t.equal(features.isEnabled('compositeEmbedders'), false)
  })
})

t.test('patch: booleans switch, null and absent leave alone, compositeEmbedders is write-only', async (t) => {
  await withStore(t, async (path) => {
    const store = await Store.open(path)
    t.teardown(() => store.close())
    const features = await Features.load(store)
    t.same(await features.patch({ metrics: true, containsFilter: true }), { ...ALL_OFF, metrics: true, containsFilter: true })
    t.same(await features.patch({ metrics: null, logsRoute: true }), { ...ALL_OFF, metrics: true, logsRoute: true, containsFilter: true })
    t.same(await features.patch({}), { ...ALL_OFF, metrics: true, logsRoute: true, containsFilter: true })
    t.same(await features.patch({ metrics: false }), { ...ALL_OFF, logsRoute: true, containsFilter: true })
    const after = await features.patch({ compositeEmbedders: true })
    t.equal(after.compositeEmbedders, true, 'a switch outside the six is shown while it is on')
    t.same(Object.keys(after), ['metrics', 'logsRoute', 'editDocumentsByFunction', 'containsFilter', 'network', 'compositeEmbedders', 'chatCompletions'], 'in Meilisearch\'s order')
    t.equal(features.isEnabled('compositeEmbedders'), true)
    t.notOk('compositeEmbedders' in await features.patch({ compositeEmbedders: false }), 'and hidden again once off')
    // concurrent patches do not lose each other's switches
    await Promise.all([features.patch({ network: true }), features.patch({ chatCompletions: true }), features.patch({ editDocumentsByFunction: true })])
    t.same(features.view(), { metrics: false, logsRoute: true, editDocumentsByFunction: true, containsFilter: true, network: true, chatCompletions: true })
  })
})

t.test('switches persist across a reopen', async (t) => {
  await withStore(t, async (path) => {
    let store = await Store.open(path)
    let features = await Features.load(store)
    await features.patch({ metrics: true, editDocumentsByFunction: true, compositeEmbedders: true })
    await features.patch({ compositeEmbedders: false })
    await features.patch({ compositeEmbedders: true })
    await store.close()
    store = await Store.open(path)
    t.teardown(() => store.close())
    features = await Features.load(store)
    t.same(features.view(), { ...ALL_OFF, metrics: true, editDocumentsByFunction: true, compositeEmbedders: true })
    t.equal(features.isEnabled('compositeEmbedders'), true)
  })
})

t.test('every switch Meilisearch 1.x knows (current and retired) is kept across a reopen', async (t) => {
  await withStore(t, async (path) => {
    let store = await Store.open(path)
    let features = await Features.load(store)
    const names = ['multimodal', 'getTaskDocumentsRoute', 'foreignKeys', 'disableDocumentsFetchQueue', 'legacySearch', 'renderRoute', 'dynamicSearchRules', 'taskQueueCompactionRoute', 'tasksStreamingRoute', 'vectorStoreSetting', 'vectorStore', 'scoreDetails'] as const
    for (const name of names) t.ok(FEATURE_NAMES.includes(name), name)
    await features.patch(Object.fromEntries(names.map((n) => [n, true])))
    t.same(features.view(), { ...ALL_OFF, ...Object.fromEntries(names.map((n) => [n, true])) }, 'the six, and each switch that is on')
    await store.close()
    store = await Store.open(path)
    t.teardown(() => store.close())
    features = await Features.load(store)
    for (const name of names) t.equal(features.isEnabled(name), true, `${name} persisted`)
  })
})

t.test('a failed write changes nothing', async (t) => {
  await withStore(t, async (path) => {
    const store = await Store.open(path)
    const features = await Features.load(store)
    await store.close()
    await t.rejects(features.patch({ metrics: true }))
    t.equal(features.isEnabled('metrics'), false)
  })
})

t.test('require: feature_not_enabled with Meilisearch\'s wording and links', async (t) => {
  await withStore(t, async (path) => {
    const store = await Store.open(path)
    t.teardown(() => store.close())
    const features = await Features.load(store)
    const expect = (fn: () => void, message: string) => {
      try {
        fn()
        t.fail('no error')
      } catch (e) {
        t.ok(e instanceof TesseraError)
        t.equal((e as TesseraError).code, 'feature_not_enabled')
        t.equal((e as TesseraError).status, 400)
        t.equal((e as Error).message, message)
      }
    }
    expect(() => features.require('editDocumentsByFunction', FEATURE_ACTIONS.editDocumentsByFunction),
      'Using the documents edit route requires enabling the `edit documents by function` experimental feature. See https://github.com/orgs/meilisearch/discussions/762')
    expect(() => features.require('containsFilter', FEATURE_ACTIONS.containsFilter),
      'Using `CONTAINS` in a filter requires enabling the `contains filter` experimental feature. See https://github.com/orgs/meilisearch/discussions/763')
    expect(() => features.require('metrics', FEATURE_ACTIONS.metrics),
      'Getting metrics requires enabling the `metrics` experimental feature. See https://github.com/meilisearch/product/discussions/625')
    expect(() => features.require('logsRoute', FEATURE_ACTIONS.logsRoute),
      'Modifying logs through the `/logs/*` routes requires enabling the `logs route` experimental feature. See https://github.com/orgs/meilisearch/discussions/721')
    expect(() => features.require('network', 'Using the /network route'),
      'Using the /network route requires enabling the `network` experimental feature. See https://github.com/orgs/meilisearch/discussions/805')
    expect(() => features.require('compositeEmbedders', 'using `"composite"` as source'),
      'using `"composite"` as source requires enabling the `composite embedders` experimental feature. See https://github.com/orgs/meilisearch/discussions/816')
    expect(() => features.require('chatCompletions', 'Using the /chats route'),
      'Using the /chats route requires enabling the `chat completions` experimental feature. See https://github.com/orgs/meilisearch/discussions/835')
    await features.patch({ editDocumentsByFunction: true })
    t.doesNotThrow(() => features.require('editDocumentsByFunction', FEATURE_ACTIONS.editDocumentsByFunction))
  })
})

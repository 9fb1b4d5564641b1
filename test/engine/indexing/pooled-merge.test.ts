/**
 * The inverted index a batch commits does not depend on where its merge ran (issue 18, part 2): one engine with a
 * worker pool (new words' postings encoded there, the merge in turns, the next view prepared aside) and one
 * without receive the same tasks, payloads in NDJSON, CSV and JSON, replacements, updates (merged documents),
 * deletions and a skipCreation addition; after each task their stored postings and forward records are the same,
 * byte for byte, and so are their answers.
 */
import t from 'tap'
import { Engine, addDocuments, deleteDocuments, search, updateSettings, type DocumentAdditionRequest } from '../../../engine/index.js'
import { keys } from '../../../engine/storage/index.js'
import { defaultSearchQuery } from '../../../engine/search/request.js'
import type { WorkerPool } from '../../../engine/pool/index.js'
import { mulberry32, zipf } from '../../../bench/data/random.js'
import { dataDir, payload, pooled, settle } from '../../helpers/engine.js'

/** Documents whose words come from a vocabulary of 30,000 (a few frequent, most rare: thousands of new words). */
function documents(from: number, count: number, seed: number): { id: number; title: string; body: string }[] {
  const rand = mulberry32(seed)
  const draw = zipf(30_000, 1.0, rand)
  const text = (n: number) => Array.from({ length: n }, () => `w${draw()}`).join(' ')
  return Array.from({ length: count }, (_, k) => ({ id: from + k, title: text(3), body: text(10 + Math.floor(rand() * 30)) }))
}

const ndjson = (docs: object[]) => docs.map((d) => JSON.stringify(d)).join('\n') + '\n'
const csv = (docs: { id: number; title: string; body: string }[]) => 'id,title,body\n' + docs.map((d) => `${d.id},${d.title},${d.body}`).join('\n') + '\n'

/** The index's stored postings and forward records, as hex rows. */
async function storedRows(engine: Engine, uid: string): Promise<string> {
  const range = keys.indexRange(engine.index(uid).id)
  const rows: string[] = []
  for (const column of ['postings', 'positions'] as const) {
    for await (const [key, value] of engine.store.scan(column, range)) rows.push(`${column} ${key.toString('hex')} ${value.toString('hex')}`)
  }
  return rows.join('\n')
}

t.test('the same postings and forward records with the merge in the pool and without', async (t) => {
  t.setTimeout(600_000)
  const pool = pooled(t)
  let encoded = 0
  const counting: WorkerPool = {
    threads: pool.threads,
    run: (job, input, options) => { if (job === 'encodePostings') encoded++; return pool.run(job, input, options) },
    close: () => pool.close(),
  }
  const engines = [await Engine.open({ path: dataDir(t), pool: counting }), await Engine.open({ path: dataDir(t) })]
  t.teardown(() => Promise.all(engines.map((e) => e.close())))
  const run = async (label: string, task: (engine: Engine) => Promise<{ taskUid: number }>) => {
    for (const engine of engines) {
      const done = await settle(engine, (await task(engine)).taskUid, 300_000)
      t.equal(done.status, 'succeeded', `${label}: succeeded ${done.error ? JSON.stringify(done.error) : ''}`)
    }
    const [withPool, inline] = await Promise.all(engines.map((e) => storedRows(e, 'docs')))
    if (label !== 'settings') t.ok(withPool!.length > 0, `${label}: rows stored`)
    t.equal(withPool, inline, `${label}: the same rows`)
  }
  const add = (body: string, request: Partial<DocumentAdditionRequest>) => (engine: Engine) =>
    addDocuments(engine, 'docs', payload(body), { method: 'replace', format: 'ndjson', csvDelimiter: ',', primaryKey: 'id', allowIndexCreation: true, ...request })

  await run('settings', (e) => updateSettings(e, 'docs', { searchableAttributes: ['title', 'body'] }))
  await run('NDJSON, 2,500 new documents', add(ndjson(documents(0, 2500, 1)), {}))
  await run('CSV, replacements and new documents', add(csv(documents(2000, 1000, 2)), { format: 'csv' }))
  await run('JSON update: merged documents', add(JSON.stringify(documents(100, 750, 3).map((d) => ({ id: d.id, title: d.title }))), { format: 'json', method: 'update' }))
  await run('deletions', (e) => deleteDocuments(e, 'docs', Array.from({ length: 400 }, (_, k) => String(k * 7))))
  await run('skipCreation: known ids replaced, unknown ones left out', add(ndjson(documents(2700, 800, 4)), { skipCreation: true, allowIndexCreation: false }))
  await run('NDJSON, 2,000 more documents', add(ndjson(documents(3500, 2000, 5)), {}))
  t.ok(encoded > 0, `postings were encoded in the pool (${encoded} partitions)`)

  for (const q of ['w0', 'w1 w2', 'w10 w5', 'w123', 'w7 w0 w3']) {
    const [a, b] = await Promise.all(engines.map((e) => search(e, 'docs', { ...defaultSearchQuery(), q, limit: 20, showRankingScore: true })))
    t.same(a!.hits, b!.hits, `the same answers to \`${q}\``)
  }
})

/**
 * The published inverted index handed to readers as a view (shared memory): an index rebuilt from the view answers
 * searches exactly as the index it came from (whole responses), keeps answering as of its version after later
 * batches, and reads the same on another thread.
 */
import t from 'tap'
import { Worker } from 'node:worker_threads'
import { Engine, deleteDocuments, updateSettings } from '../../../engine/index.js'
import { InvertedIndex } from '../../../engine/inverted/index.js'
import { searchSource } from '../../../engine/operations/search-source.js'
import { searchIndex } from '../../../engine/search/dispatch.js'
import { defaultSearchQuery, type SearchQuery } from '../../../engine/search/request.js'
import type { SearchSource } from '../../../engine/search/source.js'
import { siblingModule } from '../../../engine/util/module-path.js'
import { mulberry32, zipf } from '../../../bench/data/random.js'
import { addJson, dataDir, pooled, settle } from '../../helpers/engine.js'
import { lookups } from './inverted-view-reader.js'

// Frequent and rare words, accents, a word beyond the BMP (string order is UTF-16 order there).
const VOCABULARY = ['the', 'of', 'and', 'a', 'to', 'in', 'for', 'an', 'debian', 'org', 'package', 'library', 'manual',
  'page', 'system', 'install', 'installer', 'instance', 'network', 'server', 'café', 'naïve', 'über', 'zebra', 'ziggurat',
  '𝒳ray', 'documentation', 'document', 'river', 'mountain', 'ancient', 'modern', 'english', 'latin', 'greek']

function corpus(from: number, count: number, seed: number): object[] {
  const rand = mulberry32(seed)
  const draw = zipf(VOCABULARY.length, 1.05, rand)
  const text = (n: number) => Array.from({ length: n }, () => VOCABULARY[draw()]! + (rand() < 0.05 ? String(Math.floor(rand() * 500)) : '')).join(' ')
  return Array.from({ length: count }, (_, k) => ({ id: from + k, title: text(2 + Math.floor(rand() * 4)), body: text(8 + Math.floor(rand() * 30)) }))
}

const QUERIES: Partial<SearchQuery>[] = [
  { q: 'the of' }, { q: 'debian org' }, { q: 'instal' }, { q: 'documnetation' }, { q: 'cafe' }, { q: 'naive über' },
  { q: '𝒳ray' }, { q: '"manual page"' }, { q: 'zigurat' }, { q: 'river mountain', matchingStrategy: 'all' },
  { q: 'library', attributesToSearchOn: ['title'] }, { q: 'latin greek english', showRankingScoreDetails: true },
  { q: 'the', offset: 40 }, { q: 'server network', attributesToHighlight: ['*'], attributesToCrop: ['body'], cropLength: 5 },
  { q: 'package1', showMatchesPosition: true }, { q: 'a' },
]

const ask = (q: Partial<SearchQuery>): SearchQuery => ({ ...defaultSearchQuery(), showRankingScore: true, ...q })
const run = (source: SearchSource, index: InvertedIndex) => QUERIES.map((q) => {
  const res = searchIndex({ ...source, inverted: index }, ask(q))
  delete res.processingTimeMs
  return res
})

t.test('an index rebuilt from its view answers as the index, and as of its version after later batches', async (t) => {
  t.setTimeout(300_000)
  const engine = await Engine.open({ path: dataDir(t), pool: pooled(t) })
  t.teardown(() => engine.close())
  await settle(engine, (await updateSettings(engine, 'docs', { searchableAttributes: ['title', 'body'], synonyms: { river: ['stream'] } })).taskUid)
  t.equal((await settle(engine, (await addJson(engine, 'docs', corpus(0, 3000, 1))).taskUid)).status, 'succeeded')

  const before = await searchSource(engine, 'docs')
  const view = before.inverted.view()
  const reader = InvertedIndex.fromView(view)
  t.same(run(before, reader), run(before, before.inverted), 'the same whole responses from the view')
  const words = [...VOCABULARY, 'instal', 'docu', 'cafe', 'package1', 'zz', 'stream']
  const looked = words.map((w) => lookups(before.inverted, w))

  // A later batch: new words and documents, replacements, deletions (the view's bytes must stay as they were).
  t.equal((await settle(engine, (await addJson(engine, 'docs', [...corpus(2500, 1500, 2), ...corpus(0, 200, 3)])).taskUid)).status, 'succeeded')
  await settle(engine, (await deleteDocuments(engine, 'docs', Array.from({ length: 300 }, (_, k) => String(1000 + k)))).taskUid)
  const after = await searchSource(engine, 'docs')
  t.not(after.inverted.version, view.version, 'a new version was published')
  // (Documents are read from storage, as of now: the old view is compared on what the index itself answers.)
  t.same(words.map((w) => lookups(InvertedIndex.fromView(view), w)), looked, 'the old view still answers as of its version')
  t.not(JSON.stringify(words.map((w) => lookups(after.inverted, w))), JSON.stringify(looked), 'while the index changed')
  t.same(run(after, InvertedIndex.fromView(after.inverted.view())), run(after, after.inverted), 'the new view answers as the new index')
})

t.test('another thread reads the same index from the view', async (t) => {
  t.setTimeout(300_000)
  const engine = await Engine.open({ path: dataDir(t), pool: pooled(t) })
  t.teardown(() => engine.close())
  t.equal((await settle(engine, (await addJson(engine, 'docs', corpus(0, 2000, 4))).taskUid)).status, 'succeeded')
  const index = (await searchSource(engine, 'docs')).inverted
  const words = [...VOCABULARY, 'instal', 'docu', 'cafe', 'zz', '', 'the1', 'nothing']
  const worker = new Worker(siblingModule(import.meta.url, './inverted-view-reader'))
  t.teardown(() => worker.terminate())
  const answer = await new Promise<unknown>((resolve, reject) => {
    worker.once('message', resolve)
    worker.once('error', reject)
    worker.postMessage({ view: index.view(), words })
  })
  t.same(answer, words.map((w) => lookups(index, w)))
})

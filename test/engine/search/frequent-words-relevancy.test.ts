/**
 * Relevancy unchanged by the frequent-word structures (issue 18, part 3): a fixed set of queries (frequent-word
 * pairs, phrases, typos, prefixes, strategies, restricted fields) on a seeded natural-ish corpus must return the
 * top-20 ids and ranking scores the engine returned before those structures existed. The expectations were
 * captured from that engine into `frequent-words-relevancy.json`; `TESSERA_UPDATE_FIXTURE=1` rewrites them (only
 * when a relevancy change is intended).
 *
 * The `long` index holds documents of about a thousand words, which the matcher ranks from the query words'
 * occurrence lists instead of scanning their records (inverted/occurrences.ts); its answers were captured from the
 * engine before those lists existed (commit `3b42b1b`).
 */
import t from 'tap'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { ROOT } from '../../helpers/server.js'
import { Engine, search, updateSettings } from '../../../engine/index.js'
import { defaultSearchQuery, type SearchQuery } from '../../../engine/search/request.js'
import { mulberry32, zipf } from '../../../bench/data/random.js'
import { addJson, dataDir, pooled, settle } from '../../helpers/engine.js'

// Read from the source tree: the tests run compiled, from dist/test/, where the fixture is not copied.
const FIXTURE = join(ROOT, 'test', 'engine', 'search', 'frequent-words-relevancy.json')

// Function words first (the frequent ranks of natural text), then content words.
const FUNCTION_WORDS = ['the', 'of', 'and', 'a', 'to', 'in', 'is', 'for', 'an', 'on', 'with', 'as', 'by', 'it', 'or', 'be', 'from', 'at', 'this', 'that']
const CONTENT_WORDS = [
  'debian', 'org', 'package', 'library', 'manual', 'page', 'system', 'file', 'program', 'version', 'install', 'installer',
  'instance', 'development', 'document', 'documentation', 'network', 'server', 'client', 'support', 'python', 'module',
  'kernel', 'driver', 'plugin', 'shared', 'static', 'header', 'files', 'tool', 'tools', 'utility', 'command', 'line',
  'interface', 'graphical', 'desktop', 'window', 'manager', 'font', 'theme', 'icon', 'sound', 'audio', 'video', 'image',
  'format', 'convert', 'compress', 'archive', 'backup', 'database', 'query', 'search', 'index', 'engine', 'fast',
  'small', 'light', 'simple', 'free', 'open', 'source', 'software', 'http', 'www', 'mail', 'message', 'protocol',
  'secure', 'shell', 'terminal', 'editor', 'text', 'word', 'dictionary', 'definition', 'noun', 'verb', 'plant', 'animal',
  'river', 'mountain', 'ancient', 'modern', 'english', 'latin', 'greek', 'french', 'german', 'written', 'spoken',
]
const VOCABULARY = [...FUNCTION_WORDS, ...CONTENT_WORDS]

/** Documents of a title, `sentences` sentences of 6 to 20 words, and a maintainer. */
function corpus(count: number, seed: number, sentences: [min: number, max: number] = [1, 4]): object[] {
  const rand = mulberry32(seed)
  const draw = zipf(VOCABULARY.length, 1.1, rand)
  const sentence = (min: number, max: number) => {
    const n = min + Math.floor(rand() * (max - min + 1))
    return Array.from({ length: n }, () => VOCABULARY[draw()]!).join(' ')
  }
  const [least, most] = sentences
  return Array.from({ length: count }, (_, id) => ({
    id,
    title: sentence(2, 6),
    description: Array.from({ length: least + Math.floor(rand() * (most - least + 1)) }, () => sentence(6, 20)).join('. '),
    maintainer: `${CONTENT_WORDS[Math.floor(rand() * CONTENT_WORDS.length)]}@debian.org`,
  }))
}

type Query = Partial<SearchQuery> & { q: string }

const QUERIES: Query[] = [
  { q: 'of an' },
  { q: 'for the' },
  { q: 'debian org' },
  { q: 'the of and' },
  { q: 'package for the debian' },
  { q: 'an of' },
  { q: 'the' },
  { q: 'of' },
  { q: '"of the"' },
  { q: '"debian org"' },
  { q: 'library "for the"' },
  { q: 'documnet for the' },
  { q: 'the instal' },
  { q: 'of inst' },
  { q: 'for the', matchingStrategy: 'all' },
  { q: 'for the manual pages', matchingStrategy: 'frequency' },
  { q: 'of an', attributesToSearchOn: ['description'] },
  { q: 'debian org', attributesToSearchOn: ['maintainer', 'title'] },
  { q: 'the system', offset: 15 },
  { q: 'manual page of the program' },
]

/** Queries asked of the index with every field searchable (`*`: every field weighs the same). */
const STAR_QUERIES: Query[] = [
  { q: 'the' },
  { q: 'of' },
  { q: 'debian' },
  { q: 'instal' },
  { q: 'of an' },
  { q: 'for the', matchingStrategy: 'all' },
  { q: '"of the" system' },
  { q: 'the', offset: 30 },
]

async function answers(engine: Engine, uid: string, queries: Query[]): Promise<unknown[]> {
  const out: unknown[] = []
  for (const q of queries) {
    const query = { ...defaultSearchQuery(), limit: 20, showRankingScore: true, ...q }
    const res = await search(engine, uid, query)
    const hits = res.hits as { id: number; _rankingScore: number }[]
    out.push({ index: uid, query: q, total: res.estimatedTotalHits, hits: hits.map((h) => [h.id, h._rankingScore]) })
  }
  return out
}

t.test('top-20 ids and scores of frequent-word queries are those captured before the frequent-word structures', async (t) => {
  t.setTimeout(300_000)
  const engine = await Engine.open({ path: dataDir(t), pool: pooled(t) })
  t.teardown(() => engine.close())
  await settle(engine, (await updateSettings(engine, 'docs', { searchableAttributes: ['title', 'description', 'maintainer'] })).taskUid)
  const docs = corpus(6000, 18)
  t.equal((await settle(engine, (await addJson(engine, 'docs', docs)).taskUid)).status, 'succeeded')
  t.equal((await settle(engine, (await addJson(engine, 'star', docs)).taskUid)).status, 'succeeded')
  await settle(engine, (await updateSettings(engine, 'long', { searchableAttributes: ['title', 'description', 'maintainer'] })).taskUid)
  t.equal((await settle(engine, (await addJson(engine, 'long', corpus(300, 19, [60, 120]))).taskUid)).status, 'succeeded')
  const got = [...await answers(engine, 'docs', QUERIES), ...await answers(engine, 'star', STAR_QUERIES), ...await answers(engine, 'long', QUERIES)]
  if (process.env.TESSERA_UPDATE_FIXTURE === '1') writeFileSync(FIXTURE, `[\n${got.map((a) => JSON.stringify(a)).join(',\n')}\n]\n`)
  const expected = JSON.parse(readFileSync(FIXTURE, 'utf8')) as unknown[]
  t.equal(got.length, expected.length)
  got.forEach((answer, i) => t.same(answer, expected[i], `query ${JSON.stringify([...QUERIES, ...STAR_QUERIES, ...QUERIES][i])}`))
})

/**
 * One peer of the search benchmark, in its own process so that its memory is its own: reads the corpus (NDJSON)
 * and the queries (JSON) the parent wrote, indexes the searchable fields, runs the queries (one warm-up round, then
 * `rounds`), and prints one JSON line (PeerMeasure) on stdout.
 *
 *   node dist/bench/peer-child.js <peer> <corpus.ndjson> <queries.json> <searchable,fields> <primaryKey> <rounds> <scratch dir>
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { summarize } from './load.js'
import { PEERS, type PeerMeasure, type PeerName } from './peers.js'

type Doc = Record<string, unknown>
interface Engine {
  add(docs: Doc[]): Promise<void> | void
  search(q: string): Promise<number> | number
}

const text = (v: unknown): string => (Array.isArray(v) ? v.map(text).join(' ') : v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v))

function versionOf(pkg: string): string {
  try {
    return (JSON.parse(readFileSync(join(process.cwd(), 'node_modules', pkg, 'package.json'), 'utf8')) as { version: string }).version
  } catch {
    return 'unknown'
  }
}

function statusKiB(field: 'VmRSS' | 'VmHWM'): number {
  const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync('/proc/self/status', 'utf8'))
  return m ? Number(m[1]) : 0
}

async function engineFor(peer: PeerName, fields: string[], primaryKey: string, scratch: string): Promise<Engine> {
  switch (peer) {
    case 'flexsearch': {
      const { default: FlexSearch } = await import('flexsearch')
      // Forward tokenization: prefixes match, as Tessera's last query word does. No typo tolerance.
      const index = new (FlexSearch as unknown as { Document: new (o: unknown) => { add(d: Doc): void; search(q: string, o: unknown): { result: unknown[] }[] } }).Document({
        document: { id: primaryKey, index: fields }, tokenize: 'forward', cache: false,
      })
      return {
        add: (docs) => { for (const d of docs) index.add(d) },
        search: (q) => {
          const seen = new Set<unknown>()
          for (const field of index.search(q, { limit: 20 })) for (const id of field.result) if (seen.size < 20) seen.add(id)
          return seen.size
        },
      }
    }
    case 'minisearch': {
      const { default: MiniSearch } = await import('minisearch')
      const ms = new MiniSearch<Doc>({ fields, idField: primaryKey, storeFields: [], extractField: (d, f) => text(d[f]) })
      return {
        add: (docs) => ms.addAll(docs),
        // Prefix and fuzzy matching (edit distance up to 20 % of the word), its closest to typo tolerance.
        search: (q) => Math.min(20, ms.search(q, { prefix: true, fuzzy: 0.2 }).length),
      }
    }
    case 'orama': {
      const { create, insertMultiple, search } = await import('@orama/orama')
      const schema = Object.fromEntries(fields.map((f) => [f, 'string'])) as Record<string, 'string'>
      const db = create({ schema })
      return {
        add: async (docs) => { await insertMultiple(db, docs.map((d) => Object.fromEntries(fields.map((f) => [f, text(d[f])]))), 1000) },
        search: async (q) => (await search(db, { term: q, limit: 20, tolerance: 1 })).hits.length,
      }
    }
    case 'sqlite-fts5': {
      const { default: Database } = await import('better-sqlite3')
      // A file on disk, in WAL mode: persistent, as Tessera is. Prefix indexes for 2–3 letters.
      const db = new Database(join(scratch, 'fts5.db'))
      db.pragma('journal_mode = WAL')
      db.pragma('synchronous = NORMAL')
      const cols = fields.map((_, i) => `f${i}`)
      db.exec(`CREATE VIRTUAL TABLE docs USING fts5(${cols.join(', ')}, tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3')`)
      const insert = db.prepare(`INSERT INTO docs (${cols.join(', ')}) VALUES (${cols.map(() => '?').join(', ')})`)
      const insertAll = db.transaction((docs: Doc[]) => { for (const d of docs) insert.run(...fields.map((f) => text(d[f]))) })
      const query = db.prepare('SELECT rowid FROM docs WHERE docs MATCH ? ORDER BY rank LIMIT 20')
      return {
        add: (docs) => insertAll(docs),
        // Every word must match (FTS5's implicit AND); the last one as a prefix. No typo tolerance.
        search: (q) => {
          const words = q.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []
          if (words.length === 0) return 0
          return query.all(words.map((w, i) => `"${w}"${i === words.length - 1 ? '*' : ''}`).join(' ')).length
        },
      }
    }
  }
}

const PACKAGES: Record<PeerName, string> = { flexsearch: 'flexsearch', minisearch: 'minisearch', orama: '@orama/orama', 'sqlite-fts5': 'better-sqlite3' }

const SEARCH_BUDGET_MS = 15_000
const MIN_SAMPLES = 100

async function main(): Promise<void> {
  const [peer, corpusFile, queriesFile, fieldList, primaryKey, roundsText, scratch] = process.argv.slice(2)
  if (!PEERS.includes(peer as PeerName) || !corpusFile || !queriesFile || !fieldList || !primaryKey || !roundsText || !scratch) {
    throw new Error('usage: peer-child <peer> <corpus.ndjson> <queries.json> <fields> <primaryKey> <rounds> <scratch dir>')
  }
  const docs = readFileSync(corpusFile, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Doc)
  const queries = JSON.parse(readFileSync(queriesFile, 'utf8')) as string[]
  const fields = fieldList.split(',')
  const baselineMiB = statusKiB('VmRSS') / 1024
  const engine = await engineFor(peer as PeerName, fields, primaryKey, scratch)
  const t0 = performance.now()
  for (let i = 0; i < docs.length; i += 10_000) await engine.add(docs.slice(i, i + 10_000))
  const indexSeconds = (performance.now() - t0) / 1000
  // The warm-up pass also counts results; bounded like the measured rounds (a peer that needs seconds per query on
  // a large corpus is reported on the queries it got through: `warmupQueries`).
  let returned = 0
  let zeroHits = 0
  let warmupQueries = 0
  const warming = performance.now()
  for (const q of queries) {
    const n = await engine.search(q)
    returned += n
    if (n === 0) zeroHits++
    if (++warmupQueries >= MIN_SAMPLES && performance.now() - warming > SEARCH_BUDGET_MS) break
  }
  // Measured rounds, bounded in time: a slow peer (hundreds of ms a query on a large corpus) stops once it has
  // spent SEARCH_BUDGET_MS measuring and has at least MIN_SAMPLES samples (the mix is in random order, so its first
  // queries are a fair sample of it).
  const times: number[] = []
  const started = performance.now()
  measuring: for (let r = 0; r < Number(roundsText); r++) {
    for (const q of queries) {
      const t = performance.now()
      await engine.search(q)
      times.push(performance.now() - t)
      if (times.length >= MIN_SAMPLES && performance.now() - started > SEARCH_BUDGET_MS) break measuring
    }
  }
  const measure: PeerMeasure = {
    peer: peer as PeerName, version: versionOf(PACKAGES[peer as PeerName]), documents: docs.length, indexSeconds, docsPerSecond: docs.length / indexSeconds,
    search: summarize(times), samples: times.length, meanReturned: returned / Math.max(1, warmupQueries), zeroHits, warmupQueries, baselineMiB, peakMiB: statusKiB('VmHWM') / 1024,
  }
  process.stdout.write(JSON.stringify(measure) + '\n')
}

main().catch((err) => { process.stderr.write(`${(err as Error).stack ?? err}\n`); process.exit(1) })

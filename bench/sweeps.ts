/**
 * The tuning sweeps: what `pagination.maxTotalHits` and `searchCutoffMs` cost and buy. Users raise the first to
 * page deeper and lower the second to bound latency; both are a trade between latency and result completeness,
 * and this scenario measures both sides on one corpus.
 *
 * Corpus: the seeded generator's documents (generate.ts: Zipf-distributed words, so the most frequent word is in
 * nearly every document and a broad query really reaches 100,000 hits at 200,000 documents), searchable
 * attributes `title`, `description`, `tags`. One server (one target) for both sweeps; the corpus is indexed once.
 * Its NDJSON is cut into payloads of 50,000 documents (the whole of it is over the default 100 MB request limit).
 *
 * maxTotalHits sweep: for each value, PATCH `pagination.maxTotalHits` (and wait for the task), then for each
 * request kind one warm-up request and `rounds` measured ones, one at a time:
 * - `placeholder-first`: no `q`, offset 0, limit 20;
 * - `placeholder-deep`: no `q`, the last page the setting allows (offset maxTotalHits − 20, limit 20);
 * - `word-first`: the most frequent word, offset 0 (the baseline of the next two);
 * - `word-deep`: the most frequent word, offset maxTotalHits − 20;
 * - `word-last-page`: the most frequent word, `page` ceil(maxTotalHits / 20), `hitsPerPage` 20 (finite
 *   pagination: `totalHits` and `totalPages` must be exact).
 * Completeness = hits returned ÷ hits reachable at that offset: min(20, min(maxTotalHits, matching documents) −
 * offset). The matching documents, and the hits each request should return, come from a reference pass with
 * maxTotalHits at least the corpus size (so nothing is capped): `sameAsUncappedRatio` is the share of a page's
 * ids equal to the reference's page at the same offset (a capped deep page must hold the same documents).
 *
 * searchCutoffMs sweep: deliberately expensive queries (several frequent words, with typos, with a one-letter
 * prefix, under the `last` and `frequency` strategies). First the reference answers with the setting unset (the
 * default, 1500 ms): top-20 ids, `estimatedTotalHits` and the uncut `processingTimeMs`. Then for each cutoff:
 * PATCH `searchCutoffMs`, each query one warm-up and `rounds` measured: latency, completeness = |top-20 ∩
 * reference top-20| ÷ |reference top-20|, and `estimatedTotalHits` ÷ the reference's. A cutoff *binds* when the
 * median `processingTimeMs` reaches it; where no cutoff binds, the report says so. The setting is reset (null)
 * at the end. maxTotalHits is raised to the corpus size during this sweep, so that `estimatedTotalHits` is the real
 * count (not 1000) and its ratio to the reference shows whether the cut also loses matches.
 *
 * Every request sends `attributesToRetrieve: ['id']`: the sweeps measure ranking and pagination, not the
 * formatting of 20 documents (a constant). Latency is the round trip of one keep-alive client (fetch) and the
 * server's `processingTimeMs` (whole milliseconds).
 */
import { performance } from 'node:perf_hooks'
import { corpusNdjson, GENERATED_SEARCHABLE, vocabulary } from './generate.js'
import { summarize, type LatencySummary } from './load.js'
import { progress } from './progress.js'
import { call, expectTask, memoryOf, waitTask, type Target } from './target.js'

export interface SweepsOptions {
  documents: number
  seed: number
  /** The `pagination.maxTotalHits` values, in sweep order. */
  maxTotalHits: number[]
  /** The `searchCutoffMs` values, ms, in sweep order. */
  cutoffs: number[]
  /** Measured requests per case, after one warm-up. */
  rounds: number
}

export const DEFAULT_SWEEPS_OPTIONS: SweepsOptions = {
  documents: 200_000,
  seed: 0x5eed5,
  maxTotalHits: [1000, 5000, 10_000, 50_000, 100_000],
  cutoffs: [10, 25, 50, 100, 250, 500, 1500],
  rounds: 5,
}

/** `--quick`: 20,000 documents, maxTotalHits up to 20,000. */
export function quickSweepsOptions(o: SweepsOptions): SweepsOptions {
  return { ...o, documents: 20_000, maxTotalHits: [1000, 5000, 10_000, 20_000] }
}

const PAGE = 20
const PAYLOAD_DOCUMENTS = 50_000
const INDEXING_TIMEOUT_MS = 900_000
const SETTINGS_TIMEOUT_MS = 120_000
const SEARCH_TIMEOUT_MS = 30_000

export interface SweepsIndexing {
  ok: boolean
  error?: string
  payloads: number
  bytes: number
  /** Generating and serializing the corpus (client side, before the first request). */
  generateSeconds: number
  /** First payload sent → every task succeeded. */
  seconds: number
  docsPerSecond: number | null
  /** The index's `numberOfDocuments` afterwards. */
  numberOfDocuments: number | null
}

export interface MaxTotalHitsRow {
  maxTotalHits: number
  /** The request kind (`placeholder-first`, `placeholder-deep`, `word-first`, `word-deep`, `word-last-page`). */
  request: string
  /** The request body (without `attributesToRetrieve`). */
  body: Record<string, unknown>
  /** Documents skipped: `offset`, or (page − 1) × hitsPerPage. */
  offset: number
  roundTripMs: LatencySummary
  processingTimeMs: LatencySummary
  /** Fewest hits returned over the measured requests. */
  hitsReturned: number
  /** Hits that should be returned: min(20, min(maxTotalHits, matchingDocuments) − offset), at least 0. */
  hitsReachable: number
  /** hitsReturned ÷ hitsReachable; null when nothing is reachable (the offset is past the last match). */
  completeness: number | null
  /** The request's matching documents, uncapped (the reference pass). */
  matchingDocuments: number | null
  /** `estimatedTotalHits` (offset/limit) or `totalHits` (page/hitsPerPage) of the last reply. */
  reportedTotalHits: number | null
  /** `totalPages` of the last reply (page/hitsPerPage only). */
  reportedTotalPages: number | null
  /** Share of the returned ids equal to those of the same request with maxTotalHits uncapped; null without one. */
  sameAsUncappedRatio: number | null
  errors: number
  error?: string
}

export interface CutoffQuery {
  id: string
  description: string
  body: Record<string, unknown>
  /** Answers with the setting unset (the default, 1500 ms). */
  reference: {
    ids: unknown[]
    estimatedTotalHits: number | null
    /** Median `processingTimeMs` of the reference requests: the query's uncut cost. */
    processingTimeMs: number | null
    roundTripMs: number | null
    /** Whether every reference request returned the same top 20. */
    stable: boolean
  } | null
  error?: string
}

export interface CutoffRow {
  cutoffMs: number
  query: string
  roundTripMs: LatencySummary
  processingTimeMs: LatencySummary
  /** |top-20 ∩ reference top-20| ÷ |reference top-20|, mean and minimum over the measured requests. */
  completenessMean: number | null
  completenessMin: number | null
  /** `estimatedTotalHits` ÷ the reference's, mean over the measured requests. */
  totalHitsRatioMean: number | null
  /** The cutoff bound: the median `processingTimeMs` reached it (the search ran until the deadline). */
  bound: boolean
  errors: number
  error?: string
}

export interface SweepsResult {
  options: SweepsOptions
  remote: boolean
  indexUid: string
  searchableAttributes: string[]
  indexing: SweepsIndexing
  /** The most frequent word of the corpus: the `q` of the `word-*` requests. */
  frequentWord: string
  maxTotalHitsRows: MaxTotalHitsRow[]
  cutoffQueries: CutoffQuery[]
  cutoffRows: CutoffRow[]
  /** No row's median `processingTimeMs` reached its cutoff. */
  cutoffNeverBound: boolean
  /** The server's VmHWM at the end (local target only), MiB. */
  peakRssMiB: number | null
  notes: string[]
  totalSeconds: number
}

interface SearchReply {
  hits?: Array<{ id?: unknown }>
  estimatedTotalHits?: number
  totalHits?: number
  totalPages?: number
  processingTimeMs?: number
}

interface Timed { ok: boolean; status: number; reply: SearchReply; ms: number; error?: string }

async function timedSearch(target: Target, uid: string, body: Record<string, unknown>): Promise<Timed> {
  const t0 = performance.now()
  try {
    const { status, body: reply } = await call<SearchReply>(target, 'POST', `/indexes/${uid}/search`, { ...body, attributesToRetrieve: ['id'] }, SEARCH_TIMEOUT_MS)
    const ms = performance.now() - t0
    if (status !== 200) return { ok: false, status, reply: {}, ms, error: `${status} ${JSON.stringify(reply).slice(0, 200)}` }
    return { ok: true, status, reply: reply ?? {}, ms }
  } catch (err) {
    return { ok: false, status: 0, reply: {}, ms: performance.now() - t0, error: (err as Error).message }
  }
}

/** PATCH the index's settings and wait for the task; throws unless it succeeded. */
async function patchSettings(target: Target, uid: string, settings: Record<string, unknown>): Promise<void> {
  await expectTask(target, 'PATCH', `/indexes/${uid}/settings`, settings, SETTINGS_TIMEOUT_MS, `settings ${JSON.stringify(settings)}`)
}

const idsOf = (reply: SearchReply): unknown[] => (reply.hits ?? []).map((h) => h.id)
const totalOf = (reply: SearchReply): number | null => reply.estimatedTotalHits ?? reply.totalHits ?? null
const median = (xs: number[]): number | null => (xs.length === 0 ? null : summarize(xs).p50)

/** A one-letter typo: the third letter replaced (a vowel by another vowel, a consonant by another consonant). */
function typo(word: string): string {
  const c = word[2] ?? ''
  const replacement = 'aeiouy'.includes(c) ? (c === 'a' ? 'e' : 'a') : c === 'k' ? 't' : 'k'
  return word.slice(0, 2) + replacement + word.slice(3)
}

/** The cutoff sweep's queries, from the corpus vocabulary (rank order). */
export function cutoffQueries(words: string[]): Array<Omit<CutoffQuery, 'reference'>> {
  // Words that allow one typo (5 letters or more), most frequent first.
  const long = words.filter((w) => w.length >= 5)
  return [
    { id: 'words-3', description: 'the 3 most frequent words (default strategy `last`)', body: { q: words.slice(0, 3).join(' ') } },
    { id: 'typos-6-last', description: '6 frequent words, each with a typo, `matchingStrategy: last`', body: { q: long.slice(0, 6).map(typo).join(' '), matchingStrategy: 'last' } },
    { id: 'prefix-7-last', description: '6 frequent words and a one-letter prefix, `matchingStrategy: last`', body: { q: `${long.slice(0, 6).join(' ')} s`, matchingStrategy: 'last' } },
    { id: 'words-8-frequency', description: '8 frequent words, `matchingStrategy: frequency`', body: { q: long.slice(0, 8).join(' '), matchingStrategy: 'frequency' } },
  ]
}

/** The maxTotalHits sweep's requests for one value of the setting. */
function maxTotalHitsRequests(max: number, word: string): Array<{ request: string; body: Record<string, unknown>; offset: number }> {
  const deep = Math.max(0, max - PAGE)
  const page = Math.max(1, Math.ceil(max / PAGE))
  return [
    { request: 'placeholder-first', body: { offset: 0, limit: PAGE }, offset: 0 },
    { request: 'placeholder-deep', body: { offset: deep, limit: PAGE }, offset: deep },
    { request: 'word-first', body: { q: word, offset: 0, limit: PAGE }, offset: 0 },
    { request: 'word-deep', body: { q: word, offset: deep, limit: PAGE }, offset: deep },
    { request: 'word-last-page', body: { q: word, page, hitsPerPage: PAGE }, offset: (page - 1) * PAGE },
  ]
}

export const MAX_TOTAL_HITS_REQUESTS: Record<string, string> = {
  'placeholder-first': 'no `q`, first page (offset 0, limit 20)',
  'placeholder-deep': 'no `q`, last page allowed (offset maxTotalHits − 20, limit 20)',
  'word-first': 'the most frequent word, first page',
  'word-deep': 'the most frequent word, offset maxTotalHits − 20, limit 20',
  'word-last-page': 'the most frequent word, `page` ceil(maxTotalHits / 20), `hitsPerPage` 20',
}

async function indexCorpus(target: Target, uid: string, o: SweepsOptions): Promise<SweepsIndexing> {
  const result: SweepsIndexing = { ok: false, payloads: 0, bytes: 0, generateSeconds: 0, seconds: 0, docsPerSecond: null, numberOfDocuments: null }
  const bar = progress('sweeps: index the corpus', o.documents)
  try {
    const g0 = performance.now()
    // The whole corpus, cut at line boundaries into payloads of PAYLOAD_DOCUMENTS documents.
    const all = corpusNdjson({ count: o.documents, seed: o.seed })
    const payloads: Buffer[] = []
    let start = 0
    let lines = 0
    for (let i = 0; i < all.length; i++) {
      if (all[i] !== 0x0a) continue
      if (++lines === PAYLOAD_DOCUMENTS) { payloads.push(all.subarray(start, i + 1)); start = i + 1; lines = 0 }
    }
    if (start < all.length) payloads.push(all.subarray(start))
    result.generateSeconds = (performance.now() - g0) / 1000
    result.payloads = payloads.length
    result.bytes = all.length
    bar.update(0, `generated in ${result.generateSeconds.toFixed(1)} s`)

    await expectTask(target, 'POST', '/indexes', { uid, primaryKey: 'id' }, SETTINGS_TIMEOUT_MS, 'index creation')
    await patchSettings(target, uid, { searchableAttributes: GENERATED_SEARCHABLE })

    const t0 = performance.now()
    const taskUids: number[] = []
    for (const payload of payloads) {
      const { status, body } = await call<{ taskUid?: number }>(target, 'POST', `/indexes/${uid}/documents`, payload, 300_000)
      if (status !== 202 || typeof body?.taskUid !== 'number') throw new Error(`POST /indexes/${uid}/documents answered ${status}: ${JSON.stringify(body).slice(0, 300)}`)
      taskUids.push(body.taskUid)
    }
    const deadline = t0 + INDEXING_TIMEOUT_MS
    let done = 0
    for (const taskUid of taskUids) {
      const task = await waitTask(target, taskUid, Math.max(1000, deadline - performance.now()), 50)
      if (task.status !== 'succeeded') throw new Error(`indexing task ${taskUid} ${task.status}: ${JSON.stringify(task.error ?? null)}`)
      done += Math.min(PAYLOAD_DOCUMENTS, o.documents - done)
      bar.update(done)
    }
    result.seconds = (performance.now() - t0) / 1000
    result.docsPerSecond = o.documents / result.seconds
    const stats = await call<{ numberOfDocuments?: number }>(target, 'GET', `/indexes/${uid}/stats`)
    result.numberOfDocuments = typeof stats.body?.numberOfDocuments === 'number' ? stats.body.numberOfDocuments : null
    result.ok = true
    bar.done(`${o.documents.toLocaleString('en-US')} documents, ${(result.bytes / 1e6).toFixed(1)} MB in ${result.payloads} payload(s), ${result.seconds.toFixed(1)} s`)
  } catch (err) {
    result.error = (err as Error).message
    bar.done(`FAILED: ${result.error}`)
  }
  return result
}

async function maxTotalHitsSweep(target: Target, uid: string, o: SweepsOptions, word: string, notes: string[]): Promise<MaxTotalHitsRow[]> {
  const rows: MaxTotalHitsRow[] = []
  const cases = o.maxTotalHits.flatMap((max) => maxTotalHitsRequests(max, word).map((r) => ({ max, ...r })))
  const bar = progress('sweeps: maxTotalHits', cases.length + 1)

  // Reference pass: nothing capped. The matching documents of each `q`, and each request's page uncapped.
  const uncapped = Math.max(o.documents, ...o.maxTotalHits)
  const matching = new Map<string, number>()
  const referenceIds = new Map<string, unknown[]>()
  try {
    await patchSettings(target, uid, { pagination: { maxTotalHits: uncapped } })
    for (const q of ['', word]) {
      const r = await timedSearch(target, uid, { q, limit: 0 })
      const total = totalOf(r.reply)
      if (r.ok && total !== null) matching.set(q, total)
      else notes.push(`maxTotalHits reference: \`q: "${q}"\` failed: ${r.error ?? 'no estimatedTotalHits'}`)
    }
    for (const c of cases) {
      const r = await timedSearch(target, uid, c.body)
      if (r.ok) referenceIds.set(`${c.max}/${c.request}`, idsOf(r.reply))
    }
  } catch (err) {
    notes.push(`maxTotalHits reference pass failed: ${(err as Error).message}`)
  }
  bar.update(1)

  let n = 1
  for (const max of o.maxTotalHits) {
    let settingError: string | null = null
    try {
      await patchSettings(target, uid, { pagination: { maxTotalHits: max } })
    } catch (err) {
      settingError = (err as Error).message
    }
    for (const c of cases.filter((x) => x.max === max)) {
      const q = typeof c.body.q === 'string' ? c.body.q : ''
      const matches = matching.get(q) ?? null
      const hitsReachable = matches === null ? Math.min(PAGE, Math.max(0, max - c.offset)) : Math.min(PAGE, Math.max(0, Math.min(max, matches) - c.offset))
      const row: MaxTotalHitsRow = {
        maxTotalHits: max, request: c.request, body: c.body, offset: c.offset,
        roundTripMs: summarize([]), processingTimeMs: summarize([]), hitsReturned: 0, hitsReachable, completeness: null,
        matchingDocuments: matches, reportedTotalHits: null, reportedTotalPages: null, sameAsUncappedRatio: null, errors: 0,
      }
      if (settingError) {
        row.errors = 1
        row.error = settingError
      } else {
        const roundTrip: number[] = []
        const processing: number[] = []
        let fewest = Infinity
        let last: SearchReply | null = null
        for (let i = 0; i <= o.rounds; i++) {
          const r = await timedSearch(target, uid, c.body)
          if (!r.ok) { row.errors++; row.error ??= r.error; continue }
          fewest = Math.min(fewest, r.reply.hits?.length ?? 0)
          last = r.reply
          if (i === 0) continue // warm-up
          roundTrip.push(r.ms)
          if (typeof r.reply.processingTimeMs === 'number') processing.push(r.reply.processingTimeMs)
        }
        row.roundTripMs = summarize(roundTrip)
        row.processingTimeMs = summarize(processing)
        if (last) {
          row.hitsReturned = fewest
          row.completeness = hitsReachable > 0 ? fewest / hitsReachable : null
          row.reportedTotalHits = totalOf(last)
          row.reportedTotalPages = typeof last.totalPages === 'number' ? last.totalPages : null
          const ref = referenceIds.get(`${max}/${c.request}`)
          if (ref && ref.length > 0) {
            const ids = idsOf(last)
            let same = 0
            for (let k = 0; k < ref.length; k++) if (ids[k] === ref[k]) same++
            row.sameAsUncappedRatio = same / ref.length
          }
        }
      }
      rows.push(row)
      bar.update(++n, `maxTotalHits ${max} ${c.request}`)
    }
  }
  const deepest = rows.filter((r) => r.request === 'word-deep').at(-1)
  bar.done(deepest ? `word-deep at ${deepest.maxTotalHits}: p50 ${deepest.roundTripMs.p50.toFixed(1)} ms` : undefined)
  return rows
}

async function cutoffSweep(target: Target, uid: string, o: SweepsOptions, queries: CutoffQuery[]): Promise<CutoffRow[]> {
  const rows: CutoffRow[] = []
  const bar = progress('sweeps: searchCutoffMs', queries.length * (o.cutoffs.length + 1))
  let n = 0
  // Reference: the setting unset (default 1500 ms). One warm-up, then 3 requests.
  await patchSettings(target, uid, { searchCutoffMs: null })
  for (const q of queries) {
    const replies: Timed[] = []
    for (let i = 0; i < 4; i++) {
      const r = await timedSearch(target, uid, q.body)
      if (!r.ok) { q.error = r.error; break }
      if (i > 0) replies.push(r)
    }
    if (!q.error && replies.length > 0) {
      const ids = idsOf(replies.at(-1)!.reply)
      q.reference = {
        ids,
        estimatedTotalHits: totalOf(replies.at(-1)!.reply),
        processingTimeMs: median(replies.flatMap((r) => (typeof r.reply.processingTimeMs === 'number' ? [r.reply.processingTimeMs] : []))),
        roundTripMs: median(replies.map((r) => r.ms)),
        stable: replies.every((r) => JSON.stringify(idsOf(r.reply)) === JSON.stringify(ids)),
      }
    }
    bar.update(++n, `reference ${q.id}`)
  }

  for (const cutoffMs of o.cutoffs) {
    let settingError: string | null = null
    try {
      await patchSettings(target, uid, { searchCutoffMs: cutoffMs })
    } catch (err) {
      settingError = (err as Error).message
    }
    for (const q of queries) {
      const ref = q.reference
      const row: CutoffRow = {
        cutoffMs, query: q.id, roundTripMs: summarize([]), processingTimeMs: summarize([]),
        completenessMean: null, completenessMin: null, totalHitsRatioMean: null,
        bound: false, errors: 0,
      }
      if (settingError || !ref) {
        row.errors = 1
        row.error = settingError ?? `no reference: ${q.error ?? 'unknown'}`
      } else {
        const roundTrip: number[] = []
        const processing: number[] = []
        const completeness: number[] = []
        const ratios: number[] = []
        const refIds = new Set(ref.ids)
        for (let i = 0; i <= o.rounds; i++) {
          const r = await timedSearch(target, uid, q.body)
          if (!r.ok) { row.errors++; row.error ??= r.error; continue }
          if (i === 0) continue // warm-up
          roundTrip.push(r.ms)
          if (typeof r.reply.processingTimeMs === 'number') processing.push(r.reply.processingTimeMs)
          if (refIds.size > 0) completeness.push(idsOf(r.reply).filter((id) => refIds.has(id)).length / refIds.size)
          const total = totalOf(r.reply)
          if (total !== null && ref.estimatedTotalHits) ratios.push(total / ref.estimatedTotalHits)
        }
        row.roundTripMs = summarize(roundTrip)
        row.processingTimeMs = summarize(processing)
        row.bound = processing.length > 0 && row.processingTimeMs.p50 >= cutoffMs
        const mean = (xs: number[]) => (xs.length === 0 ? null : xs.reduce((a, b) => a + b, 0) / xs.length)
        row.completenessMean = mean(completeness)
        row.completenessMin = completeness.length === 0 ? null : Math.min(...completeness)
        row.totalHitsRatioMean = mean(ratios)
      }
      rows.push(row)
      bar.update(++n, `searchCutoffMs ${cutoffMs} ${q.id}`)
    }
  }
  const tightest = o.cutoffs.length > 0 ? Math.min(...o.cutoffs) : null
  const atTightest = rows.filter((r) => r.cutoffMs === tightest && r.completenessMean !== null)
  bar.done(atTightest.length > 0 ? `at ${tightest} ms: top-20 completeness ${pct(atTightest.reduce((a, r) => a + r.completenessMean!, 0) / atTightest.length)} (mean of the queries)` : undefined)
  return rows
}

/** Run both sweeps on one target, `open('server')`, closed at the end. */
export async function runSweeps(o: SweepsOptions, open: (part: string) => Promise<Target>): Promise<SweepsResult> {
  const started = performance.now()
  const words = vocabulary(o.seed)
  const result: SweepsResult = {
    options: o, remote: false, indexUid: '', searchableAttributes: GENERATED_SEARCHABLE,
    indexing: { ok: false, payloads: 0, bytes: 0, generateSeconds: 0, seconds: 0, docsPerSecond: null, numberOfDocuments: null },
    frequentWord: words[0]!, maxTotalHitsRows: [], cutoffQueries: cutoffQueries(words).map((q) => ({ ...q, reference: null })), cutoffRows: [],
    cutoffNeverBound: false, peakRssMiB: null, notes: [], totalSeconds: 0,
  }
  const target = await open('server')
  try {
    result.remote = target.remote
    const uid = target.indexUid('sweeps')
    result.indexUid = uid
    result.indexing = await indexCorpus(target, uid, o)
    if (result.indexing.ok) {
      if (result.indexing.numberOfDocuments !== null && result.indexing.numberOfDocuments !== o.documents) {
        result.notes.push(`the index holds ${result.indexing.numberOfDocuments} documents, ${o.documents} were sent`)
      }
      try {
        result.maxTotalHitsRows = await maxTotalHitsSweep(target, uid, o, result.frequentWord, result.notes)
      } catch (err) {
        result.notes.push(`maxTotalHits sweep failed: ${(err as Error).message}`)
      }
      try {
        // Uncapped, so that `estimatedTotalHits` is the real count and its ratio to the reference means something.
        await patchSettings(target, uid, { pagination: { maxTotalHits: Math.max(o.documents, ...o.maxTotalHits) } })
        result.cutoffRows = await cutoffSweep(target, uid, o, result.cutoffQueries)
      } catch (err) {
        result.notes.push(`searchCutoffMs sweep failed: ${(err as Error).message}`)
      } finally {
        await patchSettings(target, uid, { searchCutoffMs: null, pagination: { maxTotalHits: null } })
          .catch((err: Error) => result.notes.push(`resetting searchCutoffMs and maxTotalHits failed: ${err.message}`))
      }
      const measured = result.cutoffRows.filter((x) => x.errors === 0)
      result.cutoffNeverBound = measured.length > 0 && !measured.some((x) => x.bound)
      for (const q of result.cutoffQueries) {
        if (q.reference && !q.reference.stable) result.notes.push(`searchCutoffMs reference \`${q.id}\`: the top 20 differed between identical requests`)
        if (q.reference?.processingTimeMs != null && q.reference.processingTimeMs >= 1500) {
          result.notes.push(`searchCutoffMs reference \`${q.id}\` took ${q.reference.processingTimeMs} ms: the default cutoff (1500 ms) cut the reference itself`)
        }
      }
    }
    result.peakRssMiB = memoryOf(target.pid).hwmMiB
  } finally {
    await target.close()
    result.totalSeconds = (performance.now() - started) / 1000
  }
  return result
}

// ---- report ------------------------------------------------------------------------------------------------------

function pct(x: number | null): string {
  return x === null ? 'n/a' : `${(100 * x).toFixed(x === 1 || x === 0 ? 0 : 1)} %`
}
const ms = (x: number, digits = 1) => x.toFixed(digits)
const int = (x: number | null) => (x === null ? 'n/a' : Math.round(x).toLocaleString('en-US'))
const trio = (s: LatencySummary) => `${ms(s.p50)} / ${ms(s.p95)} / ${ms(s.p99)}`

export function renderSweepsMarkdown(r: SweepsResult): string {
  const o = r.options
  const lines: string[] = []
  const i = r.indexing
  lines.push(`Corpus: ${int(o.documents)} generated documents (bench/generate.ts, seed ${o.seed}: Zipf-distributed words) · searchableAttributes ${r.searchableAttributes.map((a) => `\`${a}\``).join(', ')} · one ${r.remote ? 'remote' : 'fresh local'} server for both sweeps`)
  lines.push(`Indexing: ${i.ok ? `${ms(i.seconds, 1)} s, ${int(i.docsPerSecond)} docs/s (${(i.bytes / 1e6).toFixed(1)} MB of NDJSON in ${i.payloads} payload(s))` : `**FAILED**: ${i.error}`}${r.peakRssMiB !== null ? ` · server peak RSS ${int(r.peakRssMiB * 1.048576)} MB` : ''} · ${o.rounds} measured requests per row after one warm-up, one client, \`attributesToRetrieve: ["id"]\``, '')

  lines.push('## maxTotalHits sweep', '')
  if (r.maxTotalHitsRows.length === 0) {
    lines.push('Not run (see the notes).', '')
  } else {
    const matchesOf = (q: string) => r.maxTotalHitsRows.find((x) => (typeof x.body.q === 'string' ? x.body.q : '') === q)?.matchingDocuments ?? null
    lines.push(`Requests (the word is \`${r.frequentWord}\`, the corpus's most frequent, matching ${int(matchesOf(r.frequentWord))} documents; the placeholder matches ${int(matchesOf(''))}):`, '')
    for (const [id, what] of Object.entries(MAX_TOTAL_HITS_REQUESTS)) lines.push(`- \`${id}\`: ${what}`)
    lines.push('')
    lines.push('Completeness = hits returned ÷ hits reachable at that offset (20 while offset + 20 ≤ min(maxTotalHits, matching documents), fewer past the end): 100 % means the setting really lets a user page that deep. *Same as uncapped* = share of the page\'s ids equal to the same request with maxTotalHits ≥ the corpus size.', '')
    lines.push('| maxTotalHits | Request | Offset | Round trip ms p50 / p95 / p99 | processingTimeMs p50 / p99 | Hits returned / reachable | Completeness | Same as uncapped | Reported total hits (pages) |')
    lines.push('|--:|---|--:|--:|--:|--:|--:|--:|--:|')
    for (const id of Object.keys(MAX_TOTAL_HITS_REQUESTS)) {
      for (const x of r.maxTotalHitsRows.filter((y) => y.request === id)) {
        const err = x.error ? ` (${x.errors} error(s): ${x.error.slice(0, 80)})` : ''
        lines.push(`| ${int(x.maxTotalHits)} | \`${x.request}\` | ${int(x.offset)} | ${trio(x.roundTripMs)}${err} | ${x.processingTimeMs.p50} / ${x.processingTimeMs.p99} | ${x.hitsReturned} / ${x.hitsReachable} | ${x.completeness === null ? 'n/a (past the last match)' : pct(x.completeness)} | ${pct(x.sameAsUncappedRatio)} | ${int(x.reportedTotalHits)}${x.reportedTotalPages !== null ? ` (${int(x.reportedTotalPages)})` : ''} |`)
      }
    }
    lines.push('')
    const deep = r.maxTotalHitsRows.filter((x) => x.request === 'word-deep')
    const first = r.maxTotalHitsRows.filter((x) => x.request === 'word-first')
    if (deep.length > 1 && first.length > 0) {
      const a = deep[0]!
      const b = deep.at(-1)!
      const base = first.reduce((s, x) => s + x.roundTripMs.p50, 0) / first.length
      lines.push(`Deep pagination: the word's last allowed page costs ${ms(a.roundTripMs.p50)} ms (p50) at maxTotalHits ${int(a.maxTotalHits)} and ${ms(b.roundTripMs.p50)} ms at ${int(b.maxTotalHits)}, against ${ms(base)} ms for its first page.`, '')
    }
  }

  lines.push('## searchCutoffMs sweep', '')
  if (r.cutoffRows.length === 0) {
    lines.push('Not run (see the notes).', '')
  } else {
    lines.push(`Queries (reference: the setting unset, i.e. the default 1500 ms; *uncut* is its median \`processingTimeMs\`; maxTotalHits is ${int(Math.max(o.documents, ...o.maxTotalHits))} during this sweep, so \`estimatedTotalHits\` is not capped):`, '')
    for (const q of r.cutoffQueries) {
      const ref = q.reference
      lines.push(`- \`${q.id}\`: ${q.description}: \`${JSON.stringify(q.body)}\` → ${ref ? `uncut ${ref.processingTimeMs ?? 'n/a'} ms, estimatedTotalHits ${int(ref.estimatedTotalHits)}, ${ref.ids.length} hits${ref.stable ? '' : ' (**the top 20 changed between identical requests**)'}` : `**no reference**: ${q.error}`}`)
    }
    lines.push('')
    lines.push('Completeness = |top 20 ∩ reference top 20| ÷ |reference top 20| (mean, and the worst request): how much of the answer a user would have seen survives the cut. *Total hits* = `estimatedTotalHits` ÷ the reference\'s. *Bound* = the median `processingTimeMs` reached the cutoff: the search ran until the deadline and returned what it had ranked by then.', '')
    if (r.cutoffNeverBound) {
      const uncut = Math.max(...r.cutoffQueries.flatMap((q) => (q.reference?.processingTimeMs != null ? [q.reference.processingTimeMs] : [0])))
      lines.push(`**The cutoff never bound**: no query's median \`processingTimeMs\` reached even the smallest cutoff (${Math.min(...o.cutoffs)} ms; the slowest query takes ${uncut} ms uncut); the rows below show the cost of the setting, not its effect.`, '')
    }
    lines.push('| searchCutoffMs | Query | Bound | Round trip ms p50 / p99 | processingTimeMs p50 / p99 | Top-20 completeness mean (worst) | Total hits |')
    lines.push('|--:|---|:-:|--:|--:|--:|--:|')
    for (const q of r.cutoffQueries) {
      for (const x of r.cutoffRows.filter((y) => y.query === q.id)) {
        const err = x.error ? ` (${x.errors} error(s): ${x.error.slice(0, 80)})` : ''
        lines.push(`| ${int(x.cutoffMs)} | \`${x.query}\` | ${x.bound ? 'yes' : 'no'} | ${ms(x.roundTripMs.p50)} / ${ms(x.roundTripMs.p99)}${err} | ${x.processingTimeMs.p50} / ${x.processingTimeMs.p99} | ${pct(x.completenessMean)} (${pct(x.completenessMin)}) | ${pct(x.totalHitsRatioMean)} |`)
      }
    }
    lines.push('')
    const overshoot = r.cutoffRows.filter((x) => x.bound && x.processingTimeMs.p50 > 0).map((x) => x.processingTimeMs.p50 - x.cutoffMs)
    if (overshoot.length > 0) {
      lines.push(`Where the cutoff bound, \`processingTimeMs\` p50 exceeded it by ${Math.min(...overshoot) === Math.max(...overshoot) ? Math.min(...overshoot) : `${Math.min(...overshoot)} to ${Math.max(...overshoot)}`} ms (the time after the deadline: the check's granularity, then fetching and formatting the hits).`, '')
    }
  }
  if (r.notes.length > 0) {
    lines.push('Notes:', '')
    for (const n of r.notes) lines.push(`- ${n}`)
    lines.push('')
  }
  return lines.join('\n')
}

/**
 * What went wrong: indexing, request errors, a reachable page missing hits, a capped page with other documents
 * than the uncapped one, a wrong `totalHits` in finite pagination, a top 20 that changed although the cutoff was
 * at least twice the query's uncut time, a cutoff overshot by more than max(2 × cutoff, cutoff + 50 ms).
 */
export function sweepsFailures(r: SweepsResult): string[] {
  const out: string[] = []
  if (!r.indexing.ok) out.push(`indexing: ${r.indexing.error}`)
  out.push(...r.notes.filter((n) => n.includes('failed')))
  for (const x of r.maxTotalHitsRows) {
    const at = `maxTotalHits ${x.maxTotalHits} ${x.request}`
    if (x.errors > 0) out.push(`${at}: ${x.errors} error(s): ${x.error}`)
    else {
      if (x.completeness !== null && x.completeness < 1) out.push(`${at}: ${x.hitsReturned} hits returned, ${x.hitsReachable} reachable`)
      if (x.sameAsUncappedRatio !== null && x.sameAsUncappedRatio < 1) out.push(`${at}: only ${pct(x.sameAsUncappedRatio)} of the page equals the uncapped page at the same offset`)
      if (x.request === 'word-last-page' && x.matchingDocuments !== null && x.reportedTotalHits !== Math.min(x.maxTotalHits, x.matchingDocuments)) {
        out.push(`${at}: totalHits ${x.reportedTotalHits}, expected ${Math.min(x.maxTotalHits, x.matchingDocuments)}`)
      }
    }
  }
  for (const q of r.cutoffQueries) if (!q.reference && r.cutoffRows.length > 0) out.push(`searchCutoffMs reference ${q.id}: ${q.error ?? 'none'}`)
  for (const x of r.cutoffRows) {
    const at = `searchCutoffMs ${x.cutoffMs} ${x.query}`
    if (x.errors > 0) { out.push(`${at}: ${x.errors} error(s): ${x.error}`); continue }
    const uncut = r.cutoffQueries.find((q) => q.id === x.query)?.reference?.processingTimeMs ?? null
    if (uncut !== null && x.cutoffMs >= 2 * Math.max(uncut, 1) && x.completenessMin !== null && x.completenessMin < 1) {
      out.push(`${at}: top 20 differs from the reference (${pct(x.completenessMin)}) although the cutoff is at least twice the uncut ${uncut} ms`)
    }
    if (x.bound && x.processingTimeMs.p50 > Math.max(2 * x.cutoffMs, x.cutoffMs + 50)) {
      out.push(`${at}: processingTimeMs p50 ${x.processingTimeMs.p50} ms, the cutoff not honoured`)
    }
  }
  return out
}

/** Rows for line charts: latency by maxTotalHits per request kind, latency and completeness by cutoff per query. */
export function sweepsSeries(r: SweepsResult): {
  maxTotalHits: Array<{ maxTotalHits: number; request: string; p50Ms: number; p99Ms: number }>
  cutoff: Array<{ cutoffMs: number; query: string; p50Ms: number; completeness: number }>
} {
  return {
    maxTotalHits: r.maxTotalHitsRows.filter((x) => x.errors === 0).map((x) => ({ maxTotalHits: x.maxTotalHits, request: x.request, p50Ms: x.roundTripMs.p50, p99Ms: x.roundTripMs.p99 })),
    cutoff: r.cutoffRows.filter((x) => x.errors === 0 && x.completenessMean !== null).map((x) => ({ cutoffMs: x.cutoffMs, query: x.query, p50Ms: x.roundTripMs.p50, completeness: x.completenessMean! })),
  }
}

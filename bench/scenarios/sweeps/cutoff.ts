/**
 * The searchCutoffMs sweep: deliberately expensive queries (several frequent words, with typos, with a one-letter
 * prefix, under the `last` and `frequency` strategies). First the reference answers with the setting unset (the
 * default, 1500 ms): top-20 ids, `estimatedTotalHits` and the uncut `processingTimeMs`. Then for each cutoff:
 * PATCH `searchCutoffMs`, each query one warm-up and `rounds` measured: latency, completeness = |top-20 ∩
 * reference top-20| ÷ |reference top-20|, and `estimatedTotalHits` ÷ the reference's. A cutoff *binds* when the
 * median `processingTimeMs` reaches it; where no cutoff binds, the report says so.
 */
import { summarize } from '../../harness/latency.js'
import { patchSettings } from '../../harness/index-api.js'
import { progress } from '../../harness/progress.js'
import type { Target } from '../../harness/target.js'
import { share } from '../../report/format.js'
import { SETTINGS_TIMEOUT_MS, type SweepsOptions } from './options.js'
import { idsOf, median, timedSearch, totalOf, type Timed } from './requests.js'
import type { CutoffQuery, CutoffRow } from './types.js'

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

export async function cutoffSweep(target: Target, uid: string, o: SweepsOptions, queries: CutoffQuery[]): Promise<CutoffRow[]> {
  const rows: CutoffRow[] = []
  const bar = progress('sweeps: searchCutoffMs', queries.length * (o.cutoffs.length + 1))
  let n = 0
  // Reference: the setting unset (default 1500 ms). One warm-up, then 3 requests.
  await patchSettings(target, uid, { searchCutoffMs: null }, SETTINGS_TIMEOUT_MS)
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
      await patchSettings(target, uid, { searchCutoffMs: cutoffMs }, SETTINGS_TIMEOUT_MS)
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
  bar.done(atTightest.length > 0 ? `at ${tightest} ms: top-20 completeness ${share(atTightest.reduce((a, r) => a + r.completenessMean!, 0) / atTightest.length)} (mean of the queries)` : undefined)
  return rows
}

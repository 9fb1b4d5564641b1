/**
 * The maxTotalHits sweep: for each value, PATCH `pagination.maxTotalHits` (and wait for the task), then for each
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
 */
import { summarize } from '../../harness/latency.js'
import { patchSettings } from '../../harness/index-api.js'
import { progress } from '../../harness/progress.js'
import type { Target } from '../../harness/target.js'
import { PAGE, SETTINGS_TIMEOUT_MS, type SweepsOptions } from './options.js'
import { idsOf, timedSearch, totalOf, type SearchReply } from './requests.js'
import type { MaxTotalHitsRow } from './types.js'

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

export async function maxTotalHitsSweep(target: Target, uid: string, o: SweepsOptions, word: string, notes: string[]): Promise<MaxTotalHitsRow[]> {
  const rows: MaxTotalHitsRow[] = []
  const cases = o.maxTotalHits.flatMap((max) => maxTotalHitsRequests(max, word).map((r) => ({ max, ...r })))
  const bar = progress('sweeps: maxTotalHits', cases.length + 1)

  // Reference pass: nothing capped. The matching documents of each `q`, and each request's page uncapped.
  const uncapped = Math.max(o.documents, ...o.maxTotalHits)
  const matching = new Map<string, number>()
  const referenceIds = new Map<string, unknown[]>()
  try {
    await patchSettings(target, uid, { pagination: { maxTotalHits: uncapped } }, SETTINGS_TIMEOUT_MS)
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
      await patchSettings(target, uid, { pagination: { maxTotalHits: max } }, SETTINGS_TIMEOUT_MS)
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

/** The sweeps report's body (bench/results/sweeps.md): both sweeps' tables, with how to read them. */
import type { LatencySummary } from '../harness/latency.js'
import { MAX_TOTAL_HITS_REQUESTS } from '../scenarios/sweeps/max-total-hits.js'
import type { SweepsResult } from '../scenarios/sweeps/types.js'
import { share as pct } from './format.js'

const ms = (x: number, digits = 1) => x.toFixed(digits)
const int = (x: number | null) => (x === null ? 'n/a' : Math.round(x).toLocaleString('en-US'))
const trio = (s: LatencySummary) => `${ms(s.p50)} / ${ms(s.p95)} / ${ms(s.p99)}`

export function renderSweepsMarkdown(r: SweepsResult): string {
  const o = r.options
  const lines: string[] = []
  const i = r.indexing
  lines.push(`Corpus: ${int(o.documents)} generated documents (bench/data/zipf-corpus.ts, seed ${o.seed}: Zipf-distributed words) · searchableAttributes ${r.searchableAttributes.map((a) => `\`${a}\``).join(', ')} · one ${r.remote ? 'remote' : 'fresh local'} server for both sweeps`)
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

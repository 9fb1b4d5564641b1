/**
 * The tuning sweeps: what `pagination.maxTotalHits` and `searchCutoffMs` cost and buy. Users raise the first to
 * page deeper and lower the second to bound latency; both are a trade between latency and result completeness,
 * and this scenario measures both sides on one corpus (index-corpus.ts), on one server (one target): the
 * maxTotalHits sweep (max-total-hits.ts), then the searchCutoffMs sweep (cutoff.ts) with maxTotalHits raised to the
 * corpus size, so that `estimatedTotalHits` is the real count (not 1000) and its ratio to the reference shows
 * whether the cut also loses matches. Both settings are reset at the end.
 */
import { performance } from 'node:perf_hooks'
import { GENERATED_SEARCHABLE, vocabulary } from '../../data/zipf-corpus.js'
import { patchSettings } from '../../harness/index-api.js'
import { memoryOf } from '../../harness/memory.js'
import type { Target } from '../../harness/target.js'
import { share } from '../../report/format.js'
import { cutoffQueries, cutoffSweep } from './cutoff.js'
import { indexCorpus } from './index-corpus.js'
import { maxTotalHitsSweep } from './max-total-hits.js'
import { SETTINGS_TIMEOUT_MS, type SweepsOptions } from './options.js'
import type { SweepsResult } from './types.js'

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
        await patchSettings(target, uid, { pagination: { maxTotalHits: Math.max(o.documents, ...o.maxTotalHits) } }, SETTINGS_TIMEOUT_MS)
        result.cutoffRows = await cutoffSweep(target, uid, o, result.cutoffQueries)
      } catch (err) {
        result.notes.push(`searchCutoffMs sweep failed: ${(err as Error).message}`)
      } finally {
        await patchSettings(target, uid, { searchCutoffMs: null, pagination: { maxTotalHits: null } }, SETTINGS_TIMEOUT_MS)
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
      if (x.sameAsUncappedRatio !== null && x.sameAsUncappedRatio < 1) out.push(`${at}: only ${share(x.sameAsUncappedRatio)} of the page equals the uncapped page at the same offset`)
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
    // Only a search that never reached its deadline must be complete: on a busy machine a search the reference ran
    // well within the cutoff can still be cut (its processingTimeMs then reaches the cutoff).
    const neverCut = x.processingTimeMs.max < x.cutoffMs
    if (uncut !== null && neverCut && x.cutoffMs >= 2 * Math.max(uncut, 1) && x.completenessMin !== null && x.completenessMin < 1) {
      out.push(`${at}: top 20 differs from the reference (${share(x.completenessMin)}) although the cutoff is at least twice the uncut ${uncut} ms`)
    }
    // A loose bound: a busy machine can stretch one ranking step past a small cutoff.
    if (x.bound && x.processingTimeMs.p50 > Math.max(4 * x.cutoffMs, x.cutoffMs + 250)) {
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

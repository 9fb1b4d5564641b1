/** The search scenario's verdicts: issue 4's targets, and what counts as a failed run (the service, not the figures). */
import { MB } from '../../report/format.js'
import type { SearchResult } from './types.js'

/** The targets of issue 4. */
export const SEARCH_TARGETS = {
  /** Indexing throughput on the npm package corpus, docs/s (first byte sent → task succeeded). */
  docsPerSecond: 50_000,
  /** Server-side processingTimeMs, ms. */
  p50Ms: 1,
  p99Ms: 10,
  /** Peak RSS of the server process, MB (10^6 bytes). */
  peakRssMB: 500,
}

export interface SearchTarget {
  description: string
  target: number
  measured: number | null
  /** null: not measured, or not applicable to this dataset. */
  met: boolean | null
  note?: string
}

/**
 * Documents with at least this many searchable words (mean) are long: issue 6 asks for indexing at FTS5's rate on
 * long documents and at half of it on short ones (the generated corpus has ~45, the npm corpus ~8).
 */
export const LONG_DOCUMENT_WORDS = 20

/** Whether the corpus is one of long documents (paragraphs), not short ones (a name and a line). */
export function isLongCorpus(s: SearchResult): boolean {
  return s.dataset.meanSearchableWords >= LONG_DOCUMENT_WORDS
}

/** Whether the dataset is the npm package list the indexing target of issue 4 is stated for. */
export function isNpmCorpus(s: SearchResult): boolean {
  return s.dataset.source === 'file' && /npm/i.test(s.dataset.name)
}

export function computeSearchTargets(s: SearchResult): SearchTarget[] {
  const npm = isNpmCorpus(s)
  const docsPerSecond = s.indexing.ok ? s.indexing.docsPerSecond : null
  const server = s.latency?.samples ? s.latency.serverMs : null
  const rss = MB(s.memory.hwmMiB)
  return [
    {
      description: `Indexing ≥ ${SEARCH_TARGETS.docsPerSecond.toLocaleString('en-US')} docs/s on the npm corpus (first byte sent → task succeeded)`,
      target: SEARCH_TARGETS.docsPerSecond, measured: docsPerSecond,
      met: docsPerSecond === null || !npm ? null : docsPerSecond >= SEARCH_TARGETS.docsPerSecond,
      ...(npm ? {} : { note: 'the target is stated for the npm corpus; shown for reference' }),
    },
    { description: `processingTimeMs p50 ≤ ${SEARCH_TARGETS.p50Ms} ms`, target: SEARCH_TARGETS.p50Ms, measured: server ? server.p50 : null, met: server ? server.p50 <= SEARCH_TARGETS.p50Ms : null },
    { description: `processingTimeMs p99 ≤ ${SEARCH_TARGETS.p99Ms} ms`, target: SEARCH_TARGETS.p99Ms, measured: server ? server.p99 : null, met: server ? server.p99 <= SEARCH_TARGETS.p99Ms : null },
    { description: `Server peak RSS (VmHWM) < ${SEARCH_TARGETS.peakRssMB} MB`, target: SEARCH_TARGETS.peakRssMB, measured: rss, met: rss === null ? null : rss < SEARCH_TARGETS.peakRssMB },
  ]
}

/** Failures of the service (not misses of the targets): indexing, searches that failed, a peer that failed. */
export function searchFailures(s: SearchResult): string[] {
  return [
    ...(s.indexing.ok ? [] : [`indexing: ${s.indexing.error}`]),
    ...(s.latency && !s.latency.ok ? [`latency: ${s.latency.error ?? 'no successful search'}`] : []),
    ...(s.qps && (s.qps.errors > 0 || s.qps.ok === 0) ? [`QPS window: ${s.qps.errors} errors`] : []),
    ...(s.inProcess.note?.startsWith('failed') ? [`in process: ${s.inProcess.note}`] : []),
    ...s.peers.filter((p) => !p.ok).map((p) => `peer ${p.peer}: ${p.error}`),
  ]
}

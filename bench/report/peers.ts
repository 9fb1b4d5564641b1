/** The search report's peers section: each peer's figures beside Tessera's, and issue 6's targets against them. */
import { isLongCorpus } from '../scenarios/search/targets.js'
import type { SearchResult } from '../scenarios/search/types.js'
import { PEER_NOTES } from '../peers/peers.js'
import { MB, int, num, trio } from './format.js'

/** The peers table: each figure absolute and as Tessera's ratio to the peer, then issue 6's targets against them. */
export function renderPeers(s: SearchResult): string[] {
  if (s.peers.length === 0) return []
  const lines: string[] = []
  const t = { docsPerSecond: s.indexing.docsPerSecond, p50: s.inProcess.ms?.p50 ?? null, p99: s.inProcess.ms?.p99 ?? null, peakMiB: s.memory.hwmMiB }
  const ratio = (a: number | null, b: number | null) => (a === null || b === null || b === 0 ? 'n/a' : `${num(a / b, 2)}×`)
  lines.push('Peers, on the same documents and queries in this run (search: in process, one warm-up round then the same rounds as Tessera\'s in-process figure, cut short once a peer has spent 15 s and made 100 measured searches (the Searches column; the warm-up pass that counts results is cut the same way, and its zero-result count is then out of the queries it got through); each peer in its own process). Tessera ÷ peer: above 1× is better for Tessera in docs/s, below 1× in times and memory. Tessera\'s docs/s are over HTTP until `succeeded` (durable); the peers\' are in-process calls. A peer\'s peak RSS includes the parsed corpus it indexes from (in parentheses: RSS once it is loaded).', '')
  lines.push('| Engine | Version | Docs/s | Tessera ÷ peer | Searches | Search ms p50 / p95 / p99 | Tessera ÷ peer (p50, p99) | Mean results | Zero-result queries | Peak RSS MB (corpus loaded) | Tessera ÷ peer | What it does |')
  lines.push('|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|---|')
  lines.push(`| **Tessera** | | ${t.docsPerSecond === null ? 'n/a' : int(t.docsPerSecond)} | | ${int(s.inProcess.samples)} | ${s.inProcess.ms ? trio(s.inProcess.ms, 3) : 'n/a'} | | | ${s.latency ? Object.values(s.latency.zeroHits).reduce((a, b) => a + b, 0) : 'n/a'} | ${num(MB(t.peakMiB), 0)} | | over HTTP, persistent (RocksDB), typo tolerance, prefix, ranking rules |`)
  for (const run of s.peers) {
    const m = run.measure
    if (!run.ok || !m) { lines.push(`| ${run.peer} | | FAILED: ${run.error} | | | | | | | | | ${PEER_NOTES[run.peer]} |`); continue }
    lines.push(`| ${run.peer} | ${m.version} | ${int(m.docsPerSecond)} | ${ratio(t.docsPerSecond, m.docsPerSecond)} | ${m.samples === undefined ? 'n/a' : int(m.samples)} | ${trio(m.search, 3)} | ${ratio(t.p50, m.search.p50)}, ${ratio(t.p99, m.search.p99)} | ${num(m.meanReturned, 1)} | ${m.zeroHits}${m.warmupQueries !== undefined && m.warmupQueries < s.queries.count ? ` of ${m.warmupQueries}` : ''} | ${num(MB(m.peakMiB), 0)} (${num(MB(m.baselineMiB), 0)}) | ${ratio(t.peakMiB, m.peakMiB)} | ${PEER_NOTES[run.peer]} |`)
  }
  lines.push('')
  const by = (p: string) => s.peers.find((r) => r.peer === p && r.ok)?.measure
  const fts = by('sqlite-fts5')
  const flex = by('flexsearch')
  const measured = s.peers.flatMap((r) => (r.ok && r.measure ? [r.measure] : []))
  const verdict = (ok: boolean | null) => (ok === null ? 'NOT MEASURED' : ok ? 'MET' : '**NOT MET**')
  const long = isLongCorpus(s)
  lines.push('Targets against peers (issue 6):', '')
  if (fts && t.docsPerSecond !== null) lines.push(`- Indexing ≥ ${long ? '1.0' : '0.5'}× FTS5's docs/s (${long ? 'long' : 'short'} documents): ${ratio(t.docsPerSecond, fts.docsPerSecond)} → ${verdict(t.docsPerSecond >= (long ? 1 : 0.5) * fts.docsPerSecond)}`)
  if (flex && t.p50 !== null) lines.push(`- Search p50 ≤ 3× FlexSearch's in-process p50: ${ratio(t.p50, flex.search.p50)} → ${verdict(t.p50 <= 3 * flex.search.p50)}`)
  if (measured.length > 0 && t.p99 !== null) lines.push(`- Search p99 below every peer's: Tessera ${num(t.p99, 3)} ms, peers ${measured.map((m) => `${m.peer} ${num(m.search.p99, 3)}`).join(', ')} → ${verdict(measured.every((m) => t.p99! < m.search.p99))}`)
  if (fts && t.peakMiB !== null) lines.push(`- Peak RSS ≤ 1.5× FTS5's: ${ratio(t.peakMiB, fts.peakMiB)} → ${verdict(t.peakMiB <= 1.5 * fts.peakMiB)}`)
  const q16 = (s.qpsSweep ?? []).find((q) => q.connections === 16)
  if (q16) lines.push(`- ≥ 5,000 searches/s over HTTP at 16 clients: ${int(q16.requestsPerSecond)} → ${verdict(q16.requestsPerSecond >= 5000)}`)
  lines.push('')
  return lines
}

/**
 * Bucket sort (milli's `bucket_sort.rs`), in two stages:
 * 1. the words rule splits the candidates into buckets with bitmaps: the documents matching all kept terms, then
 *    those matching one group fewer (by the matching strategy's removal order), ...;
 * 2. each bucket that reaches the requested window is matched document by document and ordered by the other
 *    rules' costs (a lexicographic sort is the bucket sort of those rules).
 * Buckets that end before `offset` are counted without being ranked; ranking stops once `offset + limit` hits
 * are ranked. The deadline (`searchCutoffMs`) is checked between buckets and while matching: what is left is
 * appended in internal id order, marked `skipped`.
 */
import { RoaringBitmap32, type Bitmap } from '../inverted/index.js'
import type { MatchingStrategy } from './query.js'
import { evaluate, type Evaluation, type Matcher, type RankingContext } from './ranking.js'
import type { Term } from './terms.js'

export interface RankedHit {
  docid: number
  evaluation: Evaluation | null
}

export interface BucketSortResult {
  hits: RankedHit[]
  /** Matching documents (before the threshold's cuts), for `estimatedTotalHits`. */
  candidates: number
  degraded: boolean
}

/** The kept-term sets of the words rule, from all terms to the smallest (milli's `TermsMatchingStrategy`). */
export function keptTermSets(terms: readonly Term[], strategy: MatchingStrategy): Term[][] {
  const sets: Term[][] = [terms.slice()]
  if (strategy === 'all' || terms.length <= 1) return sets
  const hasPhrase = terms.some((t) => t.isPhrase)
  const removable = terms.filter((t) => !t.isPhrase)
  // Groups in removal order.
  let groups: Term[][]
  if (strategy === 'last') {
    groups = removable.slice().reverse().map((t) => [t])
  } else {
    const freq = (t: Term) => (t.docids.size === 0 ? Number.MAX_SAFE_INTEGER : t.docids.size)
    const byFreq = new Map<number, Term[]>()
    for (const t of removable) {
      const f = freq(t)
      byFreq.set(f, [...(byFreq.get(f) ?? []), t])
    }
    groups = [...byFreq.entries()].sort((a, b) => b[0] - a[0]).map(([, g]) => g)
  }
  // Without a phrase, the last group (the first term, or the rarest) is never removed.
  if (!hasPhrase) groups.pop()
  let current = terms.slice()
  for (const group of groups) {
    current = current.filter((t) => !group.includes(t))
    if (current.length === 0) break
    sets.push(current)
  }
  return sets
}

function intersect(terms: readonly Term[], universe: Bitmap): Bitmap {
  let out = universe
  for (const t of [...terms].sort((a, b) => a.docids.size - b.docids.size)) out = RoaringBitmap32.and(out, t.docids)
  return out
}

export interface BucketSortInput {
  ctx: RankingContext
  matcher: Matcher
  terms: Term[]
  strategy: MatchingStrategy
  universe: Bitmap
  offset: number
  limit: number
  threshold: number | null
  /** Match every candidate (restricted fields): a term found by the postings may be out of the searched fields. */
  verify: boolean
  deadline: number
  now: () => number
}

export function bucketSort(input: BucketSortInput): BucketSortResult {
  const { ctx, matcher, terms, offset, limit, threshold } = input
  const sets = keptTermSets(terms, input.strategy)
  const wordsIndex = ctx.rules.indexOf('words')
  const totalWords = terms.reduce((n, t) => n + t.wordCount, 0)
  const wordsOf = (set: readonly Term[]) => set.reduce((n, t) => n + t.wordCount, 0)
  const want = offset + limit

  // Buckets of the words rule (or one bucket when it does not rank).
  const buckets: { docs: Bitmap; kept: Term[] }[] = []
  let seen: Bitmap = new RoaringBitmap32()
  const levels = wordsIndex === -1 ? [sets[0]!] : sets
  const smallest = levels[levels.length - 1]!
  let candidates = intersect(smallest, input.universe)
  for (const kept of levels) {
    const docs = RoaringBitmap32.andNot(intersect(kept, candidates), seen)
    if (!docs.isEmpty) buckets.push({ docs, kept })
    seen = RoaringBitmap32.or(seen, docs)
  }

  if (input.verify) {
    // Re-bucket by what each document matches in the searched fields.
    const verified: { docs: number[]; kept: Term[] }[] = levels.map((kept) => ({ docs: [], kept }))
    for (const docid of candidates) {
      const m = matcher.match(docid)
      const level = levels.findIndex((kept) => kept.every((t) => m.occurrences[t.index]!.length > 0))
      if (level >= 0) verified[level]!.docs.push(docid)
    }
    buckets.length = 0
    for (const v of verified) if (v.docs.length > 0) buckets.push({ docs: RoaringBitmap32.from(v.docs), kept: v.kept })
    candidates = RoaringBitmap32.orMany(buckets.map((b) => b.docs))
  }

  let total = candidates.size
  // The words rule first: rank bucket by bucket. Otherwise every candidate is ranked at once.
  const groups = wordsIndex <= 0 ? buckets : [{ docs: candidates, kept: sets[0]! }]
  const hits: RankedHit[] = []
  let passed = 0
  let degraded = false
  for (const bucket of groups) {
    const size = bucket.docs.size
    if (threshold === null && passed + size <= offset) {
      passed += size
      continue
    }
    if (degraded || input.now() > input.deadline) {
      degraded = true
      for (const docid of bucket.docs) hits.push({ docid, evaluation: null })
      passed += size
      if (passed >= want && threshold === null) break
      continue
    }
    const evaluations: Evaluation[] = []
    let i = 0
    for (const docid of bucket.docs) {
      if ((++i & 255) === 0 && input.now() > input.deadline) { degraded = true }
      if (degraded) { hits.push({ docid, evaluation: null }); continue }
      const m = matcher.match(docid)
      let kept = bucket.kept
      if (wordsIndex > 0) kept = sets.find((set) => set.every((t) => m.occurrences[t.index]!.length > 0)) ?? sets[sets.length - 1]!
      evaluations.push(evaluate(ctx, m, kept, totalWords - wordsOf(kept)))
    }
    evaluations.sort(compareCosts)
    let below = 0
    for (const e of evaluations) {
      if (threshold !== null && e.score < threshold) { below++; continue }
      hits.push({ docid: e.docid, evaluation: e })
    }
    total -= below
    passed += size - below
    if (passed >= want && threshold === null) break
  }
  // Hits before the offset are dropped by the caller (slice): keep them aligned to `passed`.
  const skippedBefore = passed - hits.length
  const start = Math.max(0, offset - skippedBefore)
  return { hits: hits.slice(start, start + limit), candidates: total, degraded }
}

function compareCosts(a: Evaluation, b: Evaluation): number {
  const n = a.costs.length
  for (let i = 0; i < n; i++) {
    const d = a.costs[i]! - b.costs[i]!
    if (d !== 0) return d
  }
  return a.docid - b.docid
}


/**
 * Bucket sort (milli's `bucket_sort.rs`), in two stages:
 * 1. the words rule splits the candidates into buckets with bitmaps: the documents matching all kept terms, then
 *    those matching one group fewer (by the matching strategy's removal order), ...;
 * 2. each bucket that reaches the requested window is matched document by document and ordered by the other
 *    rules' costs (a lexicographic order is the bucket sort of those rules); the rules (rules/) are opaque here:
 *    bucket sort only asks each for a document's cost, score digits and details. Only the documents the window needs
 *    are ordered: a bounded heap keeps the best `offset + limit − ranked so far` of a bucket.
 * Buckets that end before `offset` are counted without being ranked; ranking stops once `offset + limit` hits
 * are ranked. The deadline (`searchCutoffMs`) is checked between buckets and while matching: what is left of a
 * bucket then follows its ranked documents in internal id order, without a score.
 */
import { RoaringBitmap32, type Bitmap, type InvertedIndex } from '../inverted/index.js'
import type { MatchingStrategy } from './request.js'
import { COMPONENTS, costsOf, evaluationOf, keywordScoreValues, scoreOf, type Evaluation, type RankingRule } from './rules/index.js'
import type { Matcher } from './matcher.js'
import type { QueryPlan, Term } from './terms.js'
import { SPLIT_MIN_DOCS, splitAdjacentTerms, splitSingleTerm } from './bucket-split.js'
import { grown } from '../util/typed.js'

/** What ranks a query: its plan and its rules, in order. */
export interface RankingContext {
  plan: QueryPlan
  rules: readonly RankingRule[]
}

export interface RankedHit {
  docid: number
  evaluation: Evaluation | null
}

export interface BucketSortResult {
  hits: RankedHit[]
  /** Matching documents (before the threshold's cuts), for `estimatedTotalHits`. */
  candidates: number
  /** The matching documents (for facet distributions and distinct counts). */
  all: Bitmap
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
  /** The index: single-term buckets are split by typo and field weight with its per-field postings. */
  index?: InvertedIndex
}

/** Reusable buffers of the per-document costs (searches are synchronous). */
const scratch = { costs: new Int32Array(1024), docids: new Uint32Array(256), kept: new Uint8Array(256) }

function reserve(n: number, rules: number): void {
  scratch.docids = grown(scratch.docids, n, 0)
  scratch.kept = grown(scratch.kept, n, 0)
  scratch.costs = grown(scratch.costs, n * rules, 0)
}

export function bucketSort(input: BucketSortInput): BucketSortResult {
  const { ctx, matcher, terms, offset, limit, threshold } = input
  const sets = keptTermSets(terms, input.strategy)
  const wordsIndex = ctx.rules.findIndex((r) => r.kind === 'words')
  const totalWords = terms.reduce((n, t) => n + t.wordCount, 0)
  const skippedOf = sets.map((set) => totalWords - set.reduce((n, t) => n + t.wordCount, 0))
  const want = offset + limit
  const R = ctx.rules.length
  const costFns = ctx.rules.map((r) => r.cost)

  // Buckets of the words rule (or one bucket when it does not rank).
  const buckets: { docs: Bitmap; level: number }[] = []
  let seen: Bitmap = new RoaringBitmap32()
  const levels = wordsIndex === -1 ? [sets[0]!] : sets
  const smallest = levels[levels.length - 1]!
  let candidates = intersect(smallest, input.universe)
  for (let level = 0; level < levels.length; level++) {
    const docs = level === levels.length - 1 ? RoaringBitmap32.andNot(candidates, seen) : RoaringBitmap32.andNot(intersect(levels[level]!, candidates), seen)
    if (!docs.isEmpty) buckets.push({ docs, level })
    if (level < levels.length - 1) seen = RoaringBitmap32.or(seen, docs)
  }

  if (input.verify) {
    // Re-bucket by what each document matches in the searched fields.
    const verified: number[][] = levels.map(() => [])
    for (const docid of candidates) {
      matcher.load(docid)
      const level = levels.findIndex((kept) => matcher.hasAll(kept))
      if (level >= 0) verified[level]!.push(docid)
    }
    buckets.length = 0
    verified.forEach((docs, level) => { if (docs.length > 0) buckets.push({ docs: RoaringBitmap32.from(docs), level }) })
    candidates = RoaringBitmap32.orMany(buckets.map((b) => b.docs))
  }

  let total = candidates.size
  // The words rule first: rank bucket by bucket. Otherwise every candidate is ranked at once, each document
  // with the largest kept set it matches.
  let groups = wordsIndex <= 0 ? buckets : [{ docs: candidates, level: -1 }]
  // Large buckets are split into rank-ordered parts first (bucket-split.ts): a single term's by typo, field weight
  // and position; adjacent terms' by typo and proximity (when no threshold needs every document measured anyway).
  if (wordsIndex === 0 && input.index && !input.verify) {
    const index = input.index
    const expired = () => input.now() > input.deadline
    let before = 0
    groups = groups.flatMap((bucket) => {
      const kept = levels[bucket.level]!
      const need = want - before
      before += bucket.docs.size
      if (bucket.docs.size < SPLIT_MIN_DOCS || (need <= 0 && threshold === null)) return [bucket]
      const parts = kept.length === 1
        ? splitSingleTerm(ctx, index, kept[0]!, bucket.docs, threshold === null ? need : Infinity, expired)
        : threshold === null ? splitAdjacentTerms(ctx, index, kept, bucket.docs, matcher.byAttribute, expired) : null
      return parts ? parts.map((docs) => ({ docs, level: bucket.level })) : [bucket]
    })
  }
  const hits: RankedHit[] = []
  const components = new Int32Array(COMPONENTS)
  let passed = 0
  let degraded = false
  for (const bucket of groups) {
    const size = bucket.docs.size
    if (threshold === null && passed + size <= offset) {
      passed += size
      continue
    }
    const docs = bucket.docs.toUint32Array()
    // Measure every document of the bucket (until the deadline).
    reserve(docs.length, R)
    const { costs, docids, kept } = scratch
    let n = 0
    let below = 0
    let i = 0
    if (!degraded && input.now() > input.deadline) degraded = true
    for (; i < docs.length && !degraded; i++) {
      if ((i & 255) === 255 && input.now() > input.deadline) { degraded = true; break }
      const docid = docs[i]!
      matcher.load(docid)
      let level = bucket.level
      if (level < 0) {
        level = sets.findIndex((set) => matcher.hasAll(set))
        if (level < 0) level = sets.length - 1
      }
      matcher.measure(sets[level]!, skippedOf[level]!, components)
      if (threshold !== null) {
        if (scoreOf(ctx.rules, components) < threshold) { below++; continue }
      }
      costsOf(costFns, components, costs, n * R, docid)
      docids[n] = docid
      kept[n] = level
      n++
    }
    total -= below
    // The window's part of this bucket: local ranks [from, to).
    const from = Math.max(0, offset - passed)
    const to = Math.max(from, want - passed)
    const order = selectBest(n, Math.min(n, to), R)
    for (let k = from; k < order.length; k++) {
      const j = order[k]!
      matcher.load(docids[j]!)
      matcher.measure(sets[kept[j]!]!, skippedOf[kept[j]!]!, components)
      hits.push({ docid: docids[j]!, evaluation: evaluationOf(ctx.rules, components, docids[j]!) })
    }
    // Unmeasured documents (the deadline passed) follow in internal id order.
    const ranked = n + below
    const rest = docs.length - ranked
    if (rest > 0) {
      const start = Math.max(0, from - n)
      const end = Math.min(rest, to - n)
      for (let k = start; k < end; k++) hits.push({ docid: docs[ranked + k]!, evaluation: null })
    }
    passed += docs.length - below
    if (passed >= want && threshold === null) break
  }
  return { hits: hits.slice(0, limit), candidates: total, all: candidates, degraded }
}

/**
 * A placeholder search ranked by sort rules only (the parameter's criteria and custom rules): every document's
 * ranks, then the window's best by them (internal id last). Every score is 1; the details show the sort values.
 */
export function sortOnly(universe: Bitmap, rules: readonly RankingRule[], offset: number, limit: number): RankedHit[] {
  const R = rules.length
  const docs = universe.toUint32Array()
  const n = docs.length
  reserve(n, R)
  const { costs, docids } = scratch
  const none = new Int32Array(COMPONENTS)
  for (let i = 0; i < n; i++) {
    const docid = docs[i]!
    docids[i] = docid
    for (let r = 0; r < R; r++) costs[i * R + r] = rules[r]!.cost(none, docid)
  }
  const order = selectBest(n, Math.min(n, offset + limit), R)
  const hits: RankedHit[] = []
  for (let k = offset; k < order.length; k++) {
    const docid = docids[order[k]!]!
    const details: Record<string, unknown> = {}
    rules.forEach((rule, i) => { details[rule.name] = rule.details(none, docid, i) })
    hits.push({ docid, evaluation: { score: 1, details, values: keywordScoreValues(rules, none, docid) } })
  }
  return hits
}

/**
 * The `k` best of the `n` measured documents (by their rows of costs, then internal id), best first: a bounded
 * max-heap over the rows when `k` is small against `n`, a sort otherwise.
 */
function selectBest(n: number, k: number, R: number): number[] {
  const { costs, docids } = scratch
  const compare = (a: number, b: number): number => {
    const ra = a * R
    const rb = b * R
    for (let r = 0; r < R; r++) {
      const d = costs[ra + r]! - costs[rb + r]!
      if (d !== 0) return d
    }
    return docids[a]! - docids[b]!
  }
  if (k <= 0) return []
  if (k * 4 >= n) {
    const all = Array.from({ length: n }, (_, i) => i)
    all.sort(compare)
    return all.slice(0, k)
  }
  // heap[0] is the worst of the best k so far.
  const heap: number[] = []
  const down = (i: number) => {
    for (;;) {
      const l = 2 * i + 1
      const r = l + 1
      let worst = i
      if (l < heap.length && compare(heap[l]!, heap[worst]!) > 0) worst = l
      if (r < heap.length && compare(heap[r]!, heap[worst]!) > 0) worst = r
      if (worst === i) return
      const t = heap[i]!; heap[i] = heap[worst]!; heap[worst] = t
      i = worst
    }
  }
  for (let i = 0; i < n; i++) {
    if (heap.length < k) {
      heap.push(i)
      // Sift up.
      let c = heap.length - 1
      while (c > 0) {
        const p = (c - 1) >> 1
        if (compare(heap[c]!, heap[p]!) <= 0) break
        const t = heap[c]!; heap[c] = heap[p]!; heap[p] = t
        c = p
      }
    } else if (compare(i, heap[0]!) < 0) {
      heap[0] = i
      down(0)
    }
  }
  return heap.sort(compare)
}

/**
 * The bucket sort of a semantic search (milli's `execute_vector_search` over `get_ranking_rules_for_vector`):
 * the index's ranking rules become levels, the relevancy rules (words ... exactness) one vector level in the place
 * of the first of them, the `sort` rule the `sort` parameter's criteria, custom `attr:asc|desc` rules themselves.
 * Each level splits its universe into ordered buckets and the next level orders each bucket:
 * - a vector level takes the nearest neighbours within its universe (`offset + limit` at a time, documents at the
 *   same distance in one bucket), then the documents without vectors as one last bucket (similarity null, score 0);
 * - a sort level groups its universe by the criterion's rank.
 * The window's `offset` skips whole buckets without ordering them, the distinct attribute keeps the first document
 * of each value, and `rankingScoreThreshold` drops the buckets scoring below it.
 *
 * `searchCutoffMs`: past the deadline a level gives no new bucket; what is left of its universe follows in internal
 * id order with a `skipped` step (score 0), and the search is degraded. A vector level still gives the neighbours
 * it already found (milli's `non_blocking_next_bucket`), so a vector-first search returns its page whole.
 */
import { RoaringBitmap32, type Bitmap } from '../inverted/index.js'
import type { DistinctValues } from '../facets/distribution.js'
import { nearest } from '../vectors/search.js'
import type { VectorSpace } from '../vectors/space.js'
import type { RankedHit } from './bucket-sort.js'
import { COMPONENTS, globalScore, sortRuleFor, type RankingRule, type ScoreValue } from './rules/index.js'
import type { SortKey } from './sort.js'

export type SemanticLevel = { kind: 'vector' } | { kind: 'sort'; rule: RankingRule }

const RELEVANCY = new Set(['words', 'typo', 'proximity', 'attribute', 'attributeRank', 'wordPosition', 'exactness'])

/**
 * The levels for the index's `rankingRules` (`sorts`: the sort keys in ranking order, `sortParam` of them from the
 * `sort` parameter, as `sortCriteriaFor` gives them). Without any relevancy rule there is no vector level.
 */
export function semanticLevels(settingsRules: readonly string[], sorts: readonly SortKey[], sortParam: number): SemanticLevel[] {
  const out: SemanticLevel[] = []
  let nextSort = 0
  let vector = false
  let sorted = false
  for (const rule of settingsRules) {
    if (RELEVANCY.has(rule)) {
      if (!vector) out.push({ kind: 'vector' })
      vector = true
    } else if (rule === 'sort') {
      if (!sorted) for (let i = 0; i < sortParam; i++) out.push({ kind: 'sort', rule: sortRuleFor(sorts[nextSort++]!) })
      sorted = true
    } else if (nextSort < sorts.length) {
      out.push({ kind: 'sort', rule: sortRuleFor(sorts[nextSort++]!) })
    }
  }
  return out
}

/** What a bucket's documents got from the levels above it. */
type Step = { kind: 'vector'; similarity: number | null } | { kind: 'sort'; rule: RankingRule } | { kind: 'skipped' }

export interface SemanticSortInput {
  levels: readonly SemanticLevel[]
  space: VectorSpace | undefined
  vector: Float32Array
  /** A similarity (`(1 + cosine) / 2`, as f32) to the hit's score: the embedder's distribution shift. */
  shift: (similarity: number) => number
  universe: Bitmap
  /** Whether `universe` is every live document (the graph walk then needs no filter). */
  everyDocument: boolean
  distinct: DistinctValues | null
  from: number
  length: number
  threshold: number | null
  /** `page`/`hitsPerPage` with a threshold: every bucket is scored so the total counts only those above it. */
  exhaustive: boolean
  deadline: number
  now: () => number
}

export interface SemanticSortOutput {
  hits: RankedHit[]
  /** The matching documents less those under the threshold and the distinct attribute's duplicates. */
  all: Bitmap
  degraded: boolean
}

const NO_COMPONENTS = new Int32Array(COMPONENTS)

export function semanticSort(input: SemanticSortInput): SemanticSortOutput {
  const { levels, from, length, threshold, distinct } = input
  const hits: RankedHit[] = []
  const all = input.universe.clone()
  const seenValues = new Set<number>()
  const kept: number[] = []
  let offset = 0
  let degraded = false
  const expired = () => input.now() > input.deadline
  const finished = () => hits.length >= length && !(input.exhaustive && threshold !== null)
  const below = (steps: readonly Step[]) => threshold !== null && scoreOfSteps(steps) < threshold

  /** milli's `maybe_add_to_results`: distinct first, then the part of the bucket the window covers. */
  const add = (bucket: Bitmap, steps: readonly Step[]) => {
    const docs: number[] = []
    for (const docid of bucket) {
      const ids = distinct?.valueIds(docid)
      if (ids) {
        if (ids.some((v) => seenValues.has(v))) { all.remove(docid); continue }
        for (const v of ids) seenValues.add(v)
      }
      docs.push(docid)
      kept.push(docid)
      all.add(docid)
    }
    const skip = Math.max(0, from - offset)
    for (let i = skip; i < docs.length && hits.length < length; i++) hits.push({ docid: docs[i]!, evaluation: evaluate(steps, docs[i]!) })
    offset += docs.length
  }

  /** A bucket of `level`: dropped under the threshold (with the rest of its level), added, or ordered further. */
  const visit = (level: number, bucket: Bitmap, steps: readonly Step[], rest: () => Bitmap) => {
    if (below(steps)) {
      all.andNotInPlace(bucket)
      all.andNotInPlace(rest())
    } else if (level === levels.length - 1 || offset + bucket.size < from) {
      add(bucket, steps)
    } else {
      sortLevel(level + 1, bucket, steps)
    }
  }

  /** Past the deadline: the rest of a level's universe in id order, `skipped`. */
  const giveUp = (rest: Bitmap, steps: readonly Step[]) => {
    degraded = true
    const skipped: Step[] = [...steps, { kind: 'skipped' }]
    if (below(skipped)) all.andNotInPlace(rest)
    else add(rest, skipped)
  }

  const sortLevel = (level: number, universe: Bitmap, steps: readonly Step[]): void => {
    if (universe.size === 0 || finished()) return
    if (level === levels.length) { add(universe, steps); return }
    const l = levels[level]!
    if (l.kind === 'sort') {
      const groups = new Map<number, number[]>()
      for (const docid of universe) {
        const rank = l.rule.cost(NO_COMPONENTS, docid)
        const g = groups.get(rank)
        if (g) g.push(docid)
        else groups.set(rank, [docid])
      }
      const ordered = [...groups.keys()].sort((a, b) => a - b)
      const restFrom = (i: number) => RoaringBitmap32.from(ordered.slice(i).flatMap((r) => groups.get(r)!))
      const next: Step[] = [...steps, { kind: 'sort', rule: l.rule }]
      for (let i = 0; i < ordered.length && !finished(); i++) {
        if (expired()) { giveUp(restFrom(i), steps); return }
        visit(level, RoaringBitmap32.from(groups.get(ordered[i]!)!), next, () => restFrom(i + 1))
      }
      return
    }
    // A vector level: neighbours `from + length` at a time, the next ones asked for once those are used.
    const remaining = universe.clone()
    let k = Math.max(1, from + length)
    const whole = input.everyDocument && level === 0
    let found = input.space ? nearest(input.space, input.vector, k, whole ? null : remaining) : []
    let at = 0
    while (!finished() && remaining.size > 0) {
      if (at === found.length) {
        if (expired()) { giveUp(remaining, steps); return }
        if (found.length > 0) {
          k *= 2
          found = nearest(input.space!, input.vector, k, remaining)
          at = 0
        }
        if (found.length === 0) {
          const bucket = remaining.clone()
          remaining.clear()
          visit(level, bucket, [...steps, { kind: 'vector', similarity: null }], () => remaining)
          return
        }
      }
      // Documents at the same distance make one bucket.
      const similarity = found[at]!.similarity
      const bucket = new RoaringBitmap32()
      for (; at < found.length && found[at]!.similarity === similarity; at++) {
        if (remaining.has(found[at]!.docid)) bucket.add(found[at]!.docid)
      }
      if (bucket.size === 0) continue
      remaining.andNotInPlace(bucket)
      visit(level, bucket, [...steps, { kind: 'vector', similarity: input.shift(similarity) }], () => remaining)
    }
  }

  if (levels.length === 0) add(input.universe, [])
  else sortLevel(0, input.universe, [])
  if (distinct) {
    // As milli's distinct rule leaves the candidates: the other documents of each value kept are no longer hits.
    const taken = new Set<number>()
    for (const docid of kept) for (const v of distinct.valueIds(docid) ?? []) taken.add(v)
    const keptSet = RoaringBitmap32.from(kept)
    for (const v of taken) all.andNotInPlace(RoaringBitmap32.andNot(distinct.docsOf(v), keptSet))
  }
  return { hits, all, degraded }
}

/** milli's `global_score`: the semantic similarity when there is one, else the ranks (a `skipped` step is 0 of 1). */
function scoreOfSteps(steps: readonly Step[]): number {
  let semantic: number | null = null
  const ranks: { rank: number; maxRank: number }[] = []
  for (const s of steps) {
    if (s.kind === 'vector') semantic = s.similarity ?? 0
    else if (s.kind === 'skipped') ranks.push({ rank: 0, maxRank: 1 })
  }
  return semantic ?? globalScore(ranks)
}

function evaluate(steps: readonly Step[], docid: number): RankedHit['evaluation'] {
  const details: Record<string, unknown> = {}
  const values: ScoreValue[] = []
  steps.forEach((s, order) => {
    if (s.kind === 'vector') {
      details.vectorSort = { order, similarity: s.similarity }
      values.push({ score: s.similarity ?? 0 })
    } else if (s.kind === 'sort') {
      details[s.rule.name] = s.rule.details(NO_COMPONENTS, docid, order)
      values.push({ sortRank: s.rule.cost(NO_COMPONENTS, docid) })
    } else {
      details.skipped = { order }
      values.push({ score: 0 })
    }
  })
  return { score: scoreOfSteps(steps), details, values }
}

/**
 * Ranking rules and their scores, computed per document from its forward record (its words with fields and
 * positions), as milli's graph-based rules rank them (`ranking_rule_graph/*`, `exact_attribute.rs`,
 * `score_details.rs`):
 *
 * - words: terms kept by the matching strategy (the bucket); rank = words matched of words in the query.
 * - typo: the sum over kept terms of the cheapest derivation found (0 exact, prefix or synonym; 1 one typo or
 *   split; 2 two typos; ngrams n + k); later rules see only the derivations of that cost.
 * - proximity: for each pair of kept terms adjacent in the query, 0 when the second follows the first, 1 when
 *   one word sits between them or they are swapped, 2 for two words between or swapped one apart, else 3
 *   (byAttribute: 0 when a field holds both, else 3).
 * - attributeRank: the sum over terms of the weight of the best field holding them.
 * - wordPosition: the sum over terms of a cost growing with the distance between the term's (bucketed) position
 *   in its field and its position in the query.
 * - exactness: a field equal to the query > a field starting with it > neither; then the number of terms found
 *   as their own word.
 * Each rule's rank is `max + 1 − cost` of `max + 1` (milli's `Rank`); the global score merges the ranks as a mixed
 * radix. The rule list is the index's `rankingRules`; `sort` and `attr:asc|desc` rules belong to sorting and do not
 * rank keyword relevancy here.
 */
import type { MatchingStrategy } from './query.js'
import { phraseAt, type QueryPlan, type Term } from './terms.js'

export interface Rank {
  rank: number
  maxRank: number
}

export type RuleKind = 'words' | 'typo' | 'proximity' | 'attribute' | 'attributeRank' | 'wordPosition' | 'exactness'

/** The rules that rank a keyword search, in order (milli's `get_ranking_rules_for_query_graph_search`). */
export function rankingRulesFor(settingsRules: readonly string[], strategy: MatchingStrategy): RuleKind[] {
  const out: RuleKind[] = []
  let words = strategy === 'all'
  let attribute = false
  let hasAttributeRank = false
  let hasPosition = false
  for (const rule of settingsRules) {
    switch (rule) {
      case 'words':
        if (!words) { out.push('words'); words = true }
        break
      case 'typo': case 'proximity': case 'exactness':
        if (!words) { out.push('words'); words = true }
        if (!out.includes(rule)) out.push(rule)
        break
      case 'attribute':
        if (!words) { out.push('words'); words = true }
        if (!attribute && !hasAttributeRank && !hasPosition) { out.push('attribute'); attribute = true }
        break
      case 'attributeRank':
        if (!attribute && !hasAttributeRank) { out.push('attributeRank'); hasAttributeRank = true }
        break
      case 'wordPosition':
        if (!attribute && !hasPosition) { out.push('wordPosition'); hasPosition = true }
        break
      default:
        break
    }
  }
  return out
}

// ---- per-document matches ------------------------------------------------------------------------------------------

/** Where a derivation of a term was found in a document. */
interface Occurrence {
  /** fid << 16 | position */
  at: number
  typo: number
  exact: boolean
  /** Query terms covered (ngrams > 1). */
  span: number
  /**
   * Phrases: 1 for the positions of its first word, 2 for those of its last word (proximity pairs a phrase on the
   * left by its last word and on the right by its first, wherever they are, as milli does). 0 for words.
   */
  role?: 1 | 2
}

/** A document's matches of every term. */
export interface DocMatch {
  docid: number
  /** Per term: the occurrences of its derivations (empty: not found). */
  occurrences: Occurrence[][]
  /** Per field id: the number of indexed words (for exact attribute matches). */
  fieldWords: Map<number, number>
}

interface Entry { term: number; typo: number; exact: boolean; span: number }

/**
 * Finds every term's occurrences in documents. The derivation words of the query are marked in a lookup table
 * indexed by word id (a per-index scratch array, cleared after use).
 */
export class Matcher {
  private readonly entries = new Map<number, Entry[]>()
  private readonly phraseTerms: { term: number; words: (number | null)[]; typo: number; exact: boolean }[] = []

  constructor(private readonly plan: QueryPlan, private readonly forward: (Uint32Array | undefined)[], private readonly byAttribute = false) {
    for (const t of plan.terms) {
      for (const d of t.words) {
        let list = this.entries.get(d.wordId)
        if (!list) this.entries.set(d.wordId, (list = []))
        list.push({ term: t.index, typo: d.typo, exact: d.exact, span: d.span })
      }
      for (const p of t.phrases) this.phraseTerms.push({ term: t.index, words: p.words, typo: p.typo, exact: p.exact })
    }
  }

  match(docid: number): DocMatch {
    const { plan } = this
    const occurrences: Occurrence[][] = plan.terms.map(() => [])
    const fieldWords = new Map<number, number>()
    const record = this.forward[docid]
    if (!record) return { docid, occurrences, fieldWords }
    const allowed = plan.fieldAllowed
    const exactFields = plan.exactFields
    for (let k = 0; k < record.length; k += 2) {
      const at = record[k + 1]!
      const fid = at >>> 16
      fieldWords.set(fid, (fieldWords.get(fid) ?? 0) + 1)
      if (allowed && !allowed[fid]) continue
      const list = this.entries.get(record[k]!)
      if (!list) continue
      for (const e of list) {
        // Typo derivations never match in `disableOnAttributes` fields.
        if (exactFields && exactFields[fid] && e.typo > (e.span > 1 ? e.span : 0) && !e.exact) continue
        occurrences[e.term]!.push({ at, typo: e.typo, exact: e.exact, span: e.span })
      }
    }
    // A phrase must hold within the searched fields.
    const searched = allowed ? record.filter((_, k) => allowed[record[k | 1]! >>> 16] === 1) : record
    for (const p of this.phraseTerms) {
      if (!phraseAt(searched, p.words, this.byAttribute)) continue
      const firstWord = p.words.find((w) => w !== null)
      const lastWord = p.words.findLast((w) => w !== null)
      for (let k = 0; k < searched.length; k += 2) {
        const at = searched[k + 1]!
        if (searched[k] === firstWord) occurrences[p.term]!.push({ at, typo: p.typo, exact: p.exact, span: 1, role: 1 })
        if (searched[k] === lastWord) occurrences[p.term]!.push({ at, typo: p.typo, exact: p.exact, span: 1, role: 2 })
      }
    }
    return { docid, occurrences, fieldWords }
  }
}

// ---- costs ---------------------------------------------------------------------------------------------------------

export function bucketedPosition(p: number): number {
  if (p < 16) return p
  if (p < 24) return 24
  return 2 ** Math.ceil(Math.log2(p))
}

function costFromDistance(d: number): number {
  if (d <= 1) return d
  if (d <= 4) return 2
  if (d <= 7) return 3
  if (d <= 11) return 4
  if (d <= 16) return 5
  if (d <= 24) return 6
  if (d <= 64) return 7
  if (d <= 256) return 8
  if (d <= 1024) return 9
  return 10
}

/** Evaluation of one document for a set of kept terms. */
export interface Evaluation {
  docid: number
  /** Per rule (in the rule list's order): the costs that order documents (lower first). */
  costs: number[]
  ranks: Rank[][]
  details: Record<string, unknown>
  score: number
}

export interface RankingContext {
  plan: QueryPlan
  rules: RuleKind[]
  proximityByAttribute: boolean
  /** Whether the words rule ranks (absent with `matchingStrategy: all`). */
  totalWords: number
}

const EXACT_MATCH = 3
const MATCHES_START = 2
const NO_EXACT_MATCH = 1

/**
 * Costs, ranks and details of a document matched with `kept` terms (in query order). `skipped` is the words
 * rule's cost (query words dropped).
 */
export function evaluate(ctx: RankingContext, match: DocMatch, kept: readonly Term[], skipped: number): Evaluation {
  const { plan } = ctx
  // The cheapest typo of each kept term, and its occurrences at that cost.
  const best: Occurrence[][] = []
  let typoCost = 0
  let maxTypo = 0
  for (const t of kept) {
    const occ = match.occurrences[t.index]!
    let min = Infinity
    for (const o of occ) if (o.typo < min) min = o.typo
    if (min === Infinity) min = 0
    best.push(occ.filter((o) => o.typo === min))
    typoCost += min
  }
  maxTypo = Math.max(typoCost, maxTypoCost(plan, kept))

  const costs: number[] = []
  const ranks: Rank[][] = []
  const details: Record<string, unknown> = {}
  let order = 0
  for (const rule of ctx.rules) {
    switch (rule) {
      case 'words': {
        const max = ctx.totalWords
        const rank = max - skipped
        costs.push(skipped)
        ranks.push([{ rank, maxRank: max }])
        details.words = { order: order++, matchingWords: rank, maxMatchingWords: max, score: rank / max }
        break
      }
      case 'typo': {
        costs.push(typoCost)
        const r = { rank: maxTypo + 1 - typoCost, maxRank: maxTypo + 1 }
        ranks.push([r])
        details.typo = { order: order++, typoCount: typoCost, maxTypoCount: maxTypo, score: r.rank / r.maxRank }
        break
      }
      case 'proximity': {
        const [cost, max] = proximity(kept, best, ctx.proximityByAttribute)
        costs.push(cost)
        const r = { rank: max + 1 - cost, maxRank: max + 1 }
        ranks.push([r])
        details.proximity = { order: order++, score: r.rank / r.maxRank }
        break
      }
      case 'attributeRank': case 'wordPosition': case 'attribute': {
        const fid = rule === 'wordPosition' ? null : attributeRank(plan, kept, best)
        const pos = rule === 'attributeRank' ? null : wordPosition(kept, best)
        if (fid && pos) {
          costs.push(fid.cost * (pos.max + 1) + pos.cost)
          const rf = { rank: fid.max + 1 - fid.cost, maxRank: fid.max + 1 }
          const rp = { rank: pos.max + 1 - pos.cost, maxRank: pos.max + 1 }
          ranks.push([rf, rp])
          details.attribute = { order: order++, attributeRankingOrderScore: rf.rank / rf.maxRank, queryWordDistanceScore: rp.rank / rp.maxRank, score: globalScore([rf, rp]) }
        } else {
          const c = (fid ?? pos)!
          costs.push(c.cost)
          const r = { rank: c.max + 1 - c.cost, maxRank: c.max + 1 }
          ranks.push([r])
          details[rule] = { order: order++, score: r.rank / r.maxRank }
        }
        break
      }
      case 'exactness': {
        const type = exactAttribute(plan, kept, match)
        let wordsMax = 0
        let missing = 0
        kept.forEach((t, i) => {
          wordsMax += t.wordCount
          if (!best[i]!.some((o) => o.exact) && !match.occurrences[t.index]!.some((o) => o.exact)) missing += t.wordCount
        })
        const ra = { rank: type, maxRank: 3 }
        const rw = { rank: wordsMax + 1 - missing, maxRank: wordsMax + 1 }
        costs.push((3 - type) * (wordsMax + 1) + missing)
        ranks.push([ra, rw])
        const matchType = type === EXACT_MATCH ? 'exactMatch' : type === MATCHES_START ? 'matchesStart' : 'noExactMatch'
        details.exactness = type === NO_EXACT_MATCH
          ? { order: order++, matchType, matchingWords: rw.rank - 1, maxMatchingWords: rw.maxRank - 1, score: globalScore([ra, rw]) }
          : { order: order++, matchType, score: ra.rank / ra.maxRank }
        break
      }
    }
  }
  return { docid: match.docid, costs, ranks, details, score: globalScore(ranks.flat()) }
}

/** The most expensive typo path through the kept terms: each term alone, or an ngram for consecutive kept terms. */
function maxTypoCost(plan: QueryPlan, kept: readonly Term[]): number {
  const best = new Array<number>(kept.length + 1).fill(0)
  for (let i = 1; i <= kept.length; i++) {
    const t = kept[i - 1]!
    best[i] = best[i - 1]! + (t.isPhrase ? 0 : t.maxTypo)
    for (const g of plan.ngrams) {
      const first = i - g.n
      if (first < 0 || kept[first]!.index !== g.start) continue
      if (!kept.slice(first, i).every((x, k) => x.index === g.start + k)) continue
      best[i] = Math.max(best[i]!, best[first]! + g.maxTypo)
    }
  }
  return best[kept.length]!
}

/** milli's `Rank::global_score`: the ranks as digits of a mixed radix number, over its maximum. */
export function globalScore(ranks: readonly Rank[]): number {
  let rank = 1
  let max = 1
  for (const r of ranks) {
    rank = (rank - 1) * r.maxRank + r.rank
    max *= r.maxRank
  }
  return rank / max
}

function proximity(kept: readonly Term[], best: Occurrence[][], byAttribute: boolean): [cost: number, max: number] {
  let cost = 0
  let max = 0
  for (let i = 0; i + 1 < kept.length; i++) {
    const a = kept[i]!
    const b = kept[i + 1]!
    // Only terms adjacent in the query are scored (a dropped word, stop word or hard separator breaks the chain).
    if (b.position !== a.position + a.wordCount) continue
    max += 3
    cost += pairCost(best[i]!, best[i + 1]!, byAttribute, a.wordCount)
  }
  return [cost, max]
}

function pairCost(left: readonly Occurrence[], right: readonly Occurrence[], byAttribute: boolean, leftWords: number): number {
  let min = 3
  for (const l of left) {
    if (l.role === 1) continue
    for (const r of right) {
      if (r.role === 2) continue
      if (l.at >>> 16 !== r.at >>> 16) continue
      if (byAttribute) return 0
      // Both halves of one ngram occurrence.
      if (l.span > 1 && r.span > 1 && l.at === r.at) { min = Math.min(min, 1); continue }
      const d = (r.at & 0xffff) - ((l.at & 0xffff) + (l.role === 2 ? 0 : leftWords - 1))
      let c = 3
      if (d >= 1 && d <= 3) c = d - 1
      else if (d === 0 || d === -1) c = d === 0 ? 3 : 1
      else if (d === -2) c = 2
      if (c < min) min = c
      if (min === 0) return 0
    }
  }
  return min
}

function attributeRank(plan: QueryPlan, kept: readonly Term[], best: Occurrence[][]): { cost: number; max: number } {
  let cost = 0
  let max = 0
  kept.forEach((t, i) => {
    let min = plan.maxWeight
    for (const o of best[i]!) {
      if (o.role === 2) continue
      const w = plan.weights[o.at >>> 16] ?? plan.maxWeight
      if (w < min) min = w
    }
    cost += min * t.wordCount
    max += plan.maxWeight * t.wordCount
  })
  return { cost, max }
}

function wordPosition(kept: readonly Term[], best: Occurrence[][]): { cost: number; max: number } {
  let cost = 0
  let max = 0
  kept.forEach((t, i) => {
    let min = 10
    for (const o of best[i]!) {
      if (o.role === 2) continue
      const distance = Math.abs(bucketedPosition(o.at & 0xffff) - t.position)
      const c = costFromDistance(distance)
      if (c < min) min = c
    }
    cost += min
    max += 10
  })
  return { cost, max }
}

function exactAttribute(plan: QueryPlan, kept: readonly Term[], match: DocMatch): number {
  // Exact attributes need the query's own words from its first term on, without gaps.
  if (kept.length === 0 || kept[0]!.index !== 0) return NO_EXACT_MATCH
  for (let i = 0; i < kept.length; i++) {
    if (kept[i]!.index !== i || !kept[i]!.originalIndexed) return NO_EXACT_MATCH
  }
  const first = kept[0]!.position
  const span = kept.reduce((n, t) => n + t.wordCount, 0)
  let result = NO_EXACT_MATCH
  // Candidate fields: those holding the first term's own word at the start.
  for (const o of match.occurrences[kept[0]!.index]!) {
    if (!o.exact || o.role === 2 || (o.at & 0xffff) !== kept[0]!.position - first) continue
    const fid = o.at >>> 16
    const all = kept.every((t, i) => i === 0 || match.occurrences[t.index]!.some((x) => x.exact && x.role !== 2 && x.at >>> 16 === fid && (x.at & 0xffff) === t.position - first))
    if (!all) continue
    if ((match.fieldWords.get(fid) ?? 0) === span) return EXACT_MATCH
    result = MATCHES_START
  }
  return result
}

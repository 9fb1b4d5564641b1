/**
 * Splitting a words-rule bucket into parts in rank order with bitmap operations and light record scans, before
 * bucket sort matches documents one by one (bucket-sort.ts): every document of a part ranks after every document
 * of the parts before it, so the parts are ranked one after the other and only those that reach the window are
 * matched and measured. Two splits, each exact for the rules it splits by:
 * - a single-term bucket by typo, field weight and word position (`splitSingleTerm`);
 * - a bucket of adjacent terms by typo and proximity (`splitAdjacentTerms`): the documents where every term has an
 *   exact (typo 0) derivation and every adjacent pair of terms follows each other somewhere — what two or three
 *   frequent words (`of an`, `for the`) match in most of an index, and what rank first.
 */
import { RoaringBitmap32, type Bitmap, type InvertedIndex } from '../inverted/index.js'
import { FIRST_POSITION_COST, POSITION_COSTS } from '../inverted/positions.js'
import type { RankingContext } from './bucket-sort.js'
import type { Term } from './terms.js'
import { grown } from '../util/typed.js'

/** Buckets smaller than this are ranked document by document without being split first. */
export const SPLIT_MIN_DOCS = 2000

/**
 * A bucket whose kept set is one term, split into sub-buckets in rank order with bitmap operations: by the term's
 * cheapest typo (the typo rule), then by the weight of the best field holding a derivation of that typo (attribute
 * rank) and, under the attribute rule, by the position cost of its best occurrence (word position), as milli's
 * rules would split it. Every document of a sub-bucket then has the same costs for those rules, so ranking the
 * sub-buckets one after the other, each document by document, gives the full order while only the sub-buckets
 * that reach the window are matched; refining stops once `need` documents are placed (the rest follows as one
 * part). A typo level holding a phrase (a split word) is left whole. Null when the split does not apply:
 * concatenations, searched or typo-restricted fields, or rules in another order.
 */
export function splitSingleTerm(ctx: RankingContext, index: InvertedIndex, term: Term, docs: Bitmap, need: number, expired: () => boolean): Bitmap[] | null {
  const { plan } = ctx
  const rules = ctx.rules.map((r) => r.kind)
  if (plan.fieldAllowed || plan.exactFields || term.words.some((d) => d.span !== 1)) return null
  if (rules[0] !== 'words' || rules[1] !== 'typo') return null
  const at = rules[2] === 'proximity' ? 3 : 2
  const next = rules[at]
  const byWeight = next === 'attribute' || next === 'attributeRank'
  // Field weight then word position: one rule (attribute) or two in a row. Kept position postings are those of a
  // term first in the query (position costs depend on the query position).
  const byPosition = (next === 'attribute' || (next === 'attributeRank' && rules[at + 1] === 'wordPosition')) && term.position === 0
  // Typo levels of the words and of the phrases (split words): a level with a phrase is left whole.
  const levels = [...new Set([...term.words, ...term.phrases].map((d) => d.typo))].sort((a, b) => a - b)
  // A field's weight as the attribute rule counts it (a field out of `searchableAttributes` weighs the maximum).
  const weightOf = (fid: number) => Math.min(plan.weights[fid] ?? plan.maxWeight, plan.maxWeight)
  const weights = [...new Set([...Array.from(plan.weights, (_, fid) => weightOf(fid)), plan.maxWeight])].sort((a, b) => a - b)
  const out: Bitmap[] = []
  let placed = 0
  let seen: Bitmap = new RoaringBitmap32()
  for (const typo of levels) {
    const derivations = term.words.filter((d) => d.typo === typo)
    const phrases = term.phrases.filter((p) => p.typo === typo)
    // One typo level: its documents are the term's (a prefix's union is already made).
    const holding = levels.length === 1 ? term.docids : RoaringBitmap32.orMany([index.postings.union(derivations.map((d) => d.wordId)).docids, ...phrases.map((p) => p.docids)])
    const level = RoaringBitmap32.andNot(RoaringBitmap32.and(docs, holding), seen)
    if (level.isEmpty) continue
    seen = RoaringBitmap32.or(seen, level)
    const parts = !byWeight || (weights.length <= 1 && !byPosition) || placed >= need || phrases.length > 0 ? [level] : splitByPlace(index, derivations.map((d) => d.wordId), level, weights, weightOf, byPosition, need - placed, expired)
    for (const part of parts) { out.push(part); placed += part.size }
  }
  return out
}

/** Word ids of the current split (`stamp[word] === generation`), reused across searches. */
const wordMarks = { stamp: new Uint32Array(1024), generation: 0 }

/**
 * `level` (documents holding one of `wordIds`) by the weight of the best field holding one of them (`weights`
 * order), then with `byPosition` by the position cost of their best occurrence in any field (the two minimums
 * are taken separately, as `Matcher.measure` takes them). A document's part is the first it appears in: frequent
 * words bring their kept per-field and per-position postings; the documents of the other words are read once.
 * Once `need` documents are placed, the rest follows as one part.
 */
function splitByPlace(index: InvertedIndex, wordIds: readonly number[], level: Bitmap, weights: readonly number[], weightOf: (fid: number) => number, byPosition: boolean, need: number, expired: () => boolean): Bitmap[] {
  const rankOf = new Map(weights.map((w, k) => [w, k]))
  const fieldRank = Int32Array.from({ length: index.fields.length }, (_, fid) => rankOf.get(weightOf(fid))!)
  const R = weights.length
  const C = byPosition ? POSITION_COSTS : 0
  const byRank: Bitmap[][] = Array.from({ length: R }, () => [])
  const byCost: Bitmap[][] = Array.from({ length: C }, () => [])
  const rare: number[] = []
  // A frequent word brings its kept postings, built from all its documents the first time: within a budget of
  // the level's size per search (a short prefix has hundreds of frequent words, and the first search after each
  // publish would build them all); beyond it, the word is read in the scan with the rare ones.
  let budget = level.size
  for (const w of wordIds) {
    const frequent = index.isFrequent(w) && (index.hasKeptPlaces(w, byPosition) || (budget -= index.postings.size(w)) >= 0)
    if (!frequent) { rare.push(w); continue }
    index.fieldPostings(w).forEach((b, fid) => { if (b && !b.isEmpty) byRank[fieldRank[fid]!]!.push(b) })
    if (byPosition) index.positionPostings(w).forEach((b, c) => { if (!b.isEmpty) byCost[c]!.push(b) })
  }
  if (rare.length > 0) {
    wordMarks.stamp = grown(wordMarks.stamp, index.nextWordId)
    const { stamp } = wordMarks
    const generation = ++wordMarks.generation
    for (const w of rare) stamp[w] = generation
    const rareDocs = RoaringBitmap32.and(level, index.postings.union(rare).docids)
    const rankLists: number[][] = Array.from({ length: R }, () => [])
    const costLists: number[][] = Array.from({ length: C }, () => [])
    const { data, start, end } = index.forward
    const ids = rareDocs.toUint32Array()
    for (let i = 0; i < ids.length; i++) {
      // Out of time (`searchCutoffMs`): no split; the ranking that follows degrades the rest.
      if ((i & 1023) === 1023 && expired()) return [level]
      const docid = ids[i]!
      let rank = R
      let cost = C
      for (let k = start[docid]!, to = end[docid]!; k < to; k += 2) {
        if (stamp[data[k]!] !== generation) continue
        const at = data[k + 1]!
        const r = fieldRank[at >>> 16]!
        if (r < rank) rank = r
        if (byPosition) {
          const c = FIRST_POSITION_COST[at & 0xffff]!
          if (c < cost) cost = c
        }
      }
      if (rank < R) rankLists[rank]!.push(docid)
      if (cost < C) costLists[cost]!.push(docid)
    }
    rankLists.forEach((list, r) => { if (list.length > 0) byRank[r]!.push(new RoaringBitmap32(list)) })
    costLists.forEach((list, c) => { if (list.length > 0) byCost[c]!.push(new RoaringBitmap32(list)) })
  }
  const out: Bitmap[] = []
  let rest = level
  let placed = 0
  for (let r = 0; r < R && !rest.isEmpty && placed < need; r++) {
    let inRank = RoaringBitmap32.and(rest, RoaringBitmap32.orMany(byRank[r]!))
    if (inRank.isEmpty) continue
    rest = RoaringBitmap32.andNot(rest, inRank)
    for (let c = 0; c < C && !inRank.isEmpty && placed < need; c++) {
      const part = RoaringBitmap32.and(inRank, RoaringBitmap32.orMany(byCost[c]!))
      if (part.isEmpty) continue
      out.push(part)
      placed += part.size
      inRank = RoaringBitmap32.andNot(inRank, part)
    }
    if (!inRank.isEmpty) {
      out.push(inRank)
      placed += inRank.size
    }
  }
  // Beyond the window, or (if the records disagreed with the postings) in no part: after the others.
  if (!rest.isEmpty) out.push(rest)
  return out
}


/** Adjacency documents and exact-derivation unions kept per index view, for sets checked on many documents. */
const KEPT_SETS = 256
const kept = new WeakMap<InvertedIndex, { version: number; sets: Map<string, Bitmap> }>()

function keptSets(index: InvertedIndex): Map<string, Bitmap> {
  let entry = kept.get(index)
  if (!entry || entry.version !== index.version) kept.set(index, (entry = { version: index.version, sets: new Map() }))
  return entry.sets
}

function remember(sets: Map<string, Bitmap>, key: string, value: Bitmap): Bitmap {
  if (sets.size >= KEPT_SETS) sets.delete(sets.keys().next().value!)
  sets.set(key, value)
  return value
}

/** The documents holding one of `wordIds`. */
function unionOf(index: InvertedIndex, wordIds: readonly number[]): Bitmap {
  if (wordIds.length === 1) return index.postings.get(wordIds[0]!) ?? new RoaringBitmap32()
  const sets = keptSets(index)
  const key = `u${wordIds.join(',')}`
  return sets.get(key) ?? remember(sets, key, index.postings.union(wordIds).docids)
}

/** Word id → LEFT | RIGHT for the current adjacency scan (entries reset after it). */
let sides = new Uint8Array(1024)
const LEFT = 1
const RIGHT = 2

/**
 * The documents where a word of `left` is directly followed, in the same field, by a word of `right` (null: out
 * of time). Checked on every document holding both sides, so the answer depends on the index view alone and is
 * kept for it.
 */
function adjacentDocs(index: InvertedIndex, left: readonly number[], right: readonly number[], expired: () => boolean): Bitmap | null {
  const sets = keptSets(index)
  const key = `a${left.join(',')}|${right.join(',')}`
  const known = sets.get(key)
  if (known) return known
  const ids = RoaringBitmap32.and(unionOf(index, left), unionOf(index, right)).toUint32Array()
  sides = grown(sides, index.nextWordId)
  for (const w of left) sides[w] = LEFT
  for (const w of right) sides[w] = sides[w]! | RIGHT
  const { data, start, end, limit } = index.forward
  let n = 0
  let complete = true
  for (let i = 0; i < ids.length; i++) {
    if ((i & 1023) === 1023 && expired()) { complete = false; break }
    const docid = ids[i]!
    if (docid >= limit) continue
    let lastLeft = -1
    for (let k = start[docid]!, to = end[docid]!; k < to; k += 2) {
      const side = sides[data[k]!]!
      if (side === 0) continue
      const at = data[k + 1]!
      // Positions increase within a field: the last left word seen is the one just before, if any is.
      if ((side & RIGHT) !== 0 && lastLeft === at - 1 && (at & 0xffff) !== 0) { ids[n++] = docid; break }
      if ((side & LEFT) !== 0) lastLeft = at
    }
  }
  for (const w of left) sides[w] = 0
  for (const w of right) sides[w] = 0
  if (!complete) return null
  return remember(sets, key, new RoaringBitmap32(ids.subarray(0, n)))
}

/**
 * A bucket of two or more kept terms split by the typo and proximity rules (when they follow the words rule):
 * first the documents where every term has an exact derivation (typo 0) and every pair of terms adjacent in the
 * query has a derivation of the first directly followed by one of the second (proximity 0), then the rest of
 * those with typo 0, then the others. Exact for the rules' order because those documents have the least possible
 * typo and proximity costs. Null when it does not apply: phrases or multi-word terms, exact phrase derivations
 * (multi-word synonyms), restricted or typo-restricted fields, `byAttribute` proximity, no adjacent pair, or out of
 * time.
 */
export function splitAdjacentTerms(ctx: RankingContext, index: InvertedIndex, terms: readonly Term[], docs: Bitmap, byAttribute: boolean, expired: () => boolean): Bitmap[] | null {
  const { plan } = ctx
  const rules = ctx.rules.map((r) => r.kind)
  if (rules[0] !== 'words' || rules[1] !== 'typo' || rules[2] !== 'proximity') return null
  if (byAttribute || plan.fieldAllowed || plan.exactFields || terms.length < 2) return null
  const exact: number[][] = []
  for (const t of terms) {
    // An ngram's word counts as the term's word here: its halves sit at one position, which never costs 0.
    if (t.isPhrase || t.wordCount !== 1 || t.phrases.some((p) => p.typo === 0)) return null
    const ids = t.words.filter((d) => d.typo === 0).map((d) => d.wordId).sort((a, b) => a - b)
    if (ids.length === 0) return null
    exact.push(ids)
  }
  let typo0 = docs
  for (const ids of exact) typo0 = RoaringBitmap32.and(typo0, unionOf(index, ids))
  let prox0 = typo0
  let pairs = 0
  for (let i = 0; i + 1 < terms.length && !prox0.isEmpty; i++) {
    // Only terms adjacent in the query are scored (see Matcher.info).
    if (terms[i + 1]!.position !== terms[i]!.position + terms[i]!.wordCount) continue
    const adjacent = adjacentDocs(index, exact[i]!, exact[i + 1]!, expired)
    if (!adjacent) return null
    prox0 = RoaringBitmap32.and(prox0, adjacent)
    pairs++
  }
  if (pairs === 0) return null
  return [prox0, RoaringBitmap32.andNot(typo0, prox0), RoaringBitmap32.andNot(docs, typo0)].filter((part) => !part.isEmpty)
}

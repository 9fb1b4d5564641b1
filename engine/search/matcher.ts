/**
 * Matching one document at a time: the `Matcher` finds a document's occurrences of the query's derivations (its
 * words with fields and positions) into reusable typed arrays, and `measure` derives from those occurrences the
 * cost components every keyword ranking rule reads (`rules/components.ts`), as milli's graph-based rules rank
 * them (`ranking_rule_graph/*`, `exact_attribute.rs`):
 *
 * - words: terms kept by the matching strategy (the bucket);
 * - typo: per kept term, the cheapest derivation found (0 exact, prefix or synonym; 1 one typo or split; 2 two
 *   typos; ngrams n + k); later components see only the occurrences of that cost;
 * - proximity: per pair of kept terms adjacent in the query, 0 when the second follows the first, 1 when one word
 *   sits between them or they are swapped, 2 for two words between or swapped one apart, else 3 (byAttribute: 0
 *   when a field holds both, else 3);
 * - field weight and word position: per term, the weight of the best field holding it and the cost of its best
 *   position against its position in the query;
 * - exactness: a field equal to the query, a field starting with it, or neither; and the terms found as their own
 *   word.
 *
 * Speed: ranking a bucket of tens of thousands of documents must take a few milliseconds, so the per-document work
 * allocates nothing; score details (objects) are built only for the hits returned. A long document (a man page, a
 * mail) is matched from the query words' occurrence lists (inverted/occurrences.ts) instead of a scan of its whole
 * record: 77 documents of the median man pages query were 300,000 record words to scan.
 */
import type { ForwardRecords } from '../inverted/forward.js'
import { seekDoc, type Bitmap, type InvertedIndex, type WordOccurrences } from '../inverted/index.js'
import { grown } from '../util/typed.js'
import { positionCost } from '../inverted/positions.js'
import { phraseAt, phraseConditions, type PhraseCondition, type QueryPlan, type Term } from './terms.js'
import { keptInfo, type KeptInfo } from './kept-info.js'
import { EXACT, ROLE_FIRST, ROLE_LAST, exactAttribute, pairCost, type MatchedDocument } from './match-costs.js'
import {
  C_EXACT_TYPE, C_FID, C_FID_MAX, C_MISSING, C_POS, C_POS_MAX, C_PROX, C_PROX_MAX, C_SKIPPED, C_TYPO, C_TYPO_MAX,
  C_WORDS_MAX, NO_EXACT_MATCH,
} from './rules/components.js'

/**
 * A document's record longer than this many words per query word is matched from the words' occurrence lists
 * (inverted/occurrences.ts) rather than scanned: a lookup in a list costs about as much as scanning this many record
 * words (measured on man pages and GCIDE definitions).
 */
const RECORD_WORDS_PER_LOOKUP = 24

/**
 * Word id → the query's entries for that word, for the current query only: bit `word` of `bits` marks a word of
 * the query, `slot[word]` its first entry. Shared by all matchers (searches are synchronous: a matcher is used to
 * its end before the next one is made, and `generation` tells the owner), so no per-query array of the
 * vocabulary's size is allocated. A bit set rather than a stamp per word: records are mostly other words, and a
 * vocabulary's bits stay in the CPU's cache where a u32 per word does not.
 */
const lookup = { bits: new Uint32Array(32), slot: new Int32Array(1024), generation: 0, words: [] as number[] }

function growLookup(size: number): void {
  lookup.bits = grown(lookup.bits, (size >>> 5) + 1)
  lookup.slot = grown(lookup.slot, size)
}

/**
 * A phrase derivation; `docids`: the documents holding it in any field (settled when the query was planned);
 * `firstList`, `lastList`: where its first and last words are among the matcher's listed words.
 */
interface PhraseEntry {
  term: number; words: (number | null)[]; conditions: PhraseCondition[]; first: number; last: number; typo: number; exact: boolean; docids: Bitmap
  firstList: number; lastList: number
}

/**
 * Finds every term's occurrences in one document at a time. After `load(docid)`, occurrence `i < n` is
 * `term[i]`, `at[i]` (fid << 16 | position), `typo[i]`, `span[i]` (query terms covered: ngrams > 1) and `flags[i]`
 * (EXACT: the term's own word; ROLE_FIRST / ROLE_LAST: a phrase's first / last word — proximity pairs a phrase on
 * the left by its last word and on the right by its first, wherever they are, as milli does); `count[t]` is the
 * number of occurrences of term `t`.
 */
export class Matcher implements MatchedDocument {
  private readonly generation: number
  /** Entries by slot: `entStart[slot]` … `entStart[slot + 1]`. */
  private readonly entStart: Int32Array
  private readonly entTerm: Int32Array
  private readonly entTypo: Int32Array
  private readonly entSpan: Int32Array
  private readonly entExact: Uint8Array
  private readonly phrases: PhraseEntry[] = []
  private readonly keptInfo = new Map<readonly Term[], KeptInfo>()

  n = 0
  term = new Int32Array(64)
  at = new Uint32Array(64)
  typo = new Int32Array(64)
  span = new Int32Array(64)
  flags = new Uint8Array(64)
  readonly count: Int32Array
  /** The loaded record: `forward.data[from .. to)`. */
  private from = 0
  private to = 0
  /** Per term, set by `measure`: the cheapest typo among the occurrences, the best field weight and position cost, whether its own word is found. */
  readonly minTypo: Int32Array
  private readonly minWeight: Int32Array
  private readonly minPos: Int32Array
  private readonly exactFound: Uint8Array
  private readonly forward: ForwardRecords
  /**
   * The query's distinct words (the derivations' in slot order, then the phrases' first and last words), their
   * occurrence lists once a long record needed them, and a cursor in each list's documents.
   */
  private readonly listWords: number[] = []
  private lists: (WordOccurrences | null)[] | null = null
  private readonly cursors: Int32Array
  /** Records longer than this (in arena words) are matched from the lists. */
  private readonly listThreshold: number
  /**
   * The records the lists are asked to cover: longer than the threshold rounded down to a power of two times the
   * one-word threshold, so a list built for a long query is built again for shorter queries at most a few times.
   */
  private readonly listLength: number

  constructor(private readonly plan: QueryPlan, private readonly index: InvertedIndex, readonly byAttribute = false) {
    this.forward = index.forward
    lookup.generation = (lookup.generation + 1) >>> 0
    this.generation = lookup.generation
    for (const word of lookup.words) lookup.bits[word >>> 5] = 0
    lookup.words = []
    // Entries grouped by word id.
    const byWord = new Map<number, { term: number; typo: number; exact: boolean; span: number }[]>()
    let maxWord = 0
    for (const t of plan.terms) {
      for (const d of t.words) {
        let list = byWord.get(d.wordId)
        if (!list) byWord.set(d.wordId, (list = []))
        list.push({ term: t.index, typo: d.typo, exact: d.exact, span: d.span })
        if (d.wordId > maxWord) maxWord = d.wordId
      }
      for (const p of t.phrases) {
        const first = p.words.find((w) => w !== null) ?? -1
        const last = p.words.findLast((w) => w !== null) ?? -1
        this.phrases.push({ term: t.index, words: p.words, conditions: phraseConditions(p.words), first, last, typo: p.typo, exact: p.exact, docids: p.docids, firstList: -1, lastList: -1 })
      }
    }
    growLookup(maxWord + 1)
    let total = 0
    for (const list of byWord.values()) total += list.length
    this.entStart = new Int32Array(byWord.size + 1)
    this.entTerm = new Int32Array(total)
    this.entTypo = new Int32Array(total)
    this.entSpan = new Int32Array(total)
    this.entExact = new Uint8Array(total)
    let slot = 0
    let k = 0
    for (const [word, list] of byWord) {
      lookup.bits[word >>> 5]! |= 1 << (word & 31)
      lookup.words.push(word)
      lookup.slot[word] = slot
      this.entStart[slot] = k
      for (const e of list) {
        this.entTerm[k] = e.term
        this.entTypo[k] = e.typo
        this.entSpan[k] = e.span
        this.entExact[k] = e.exact ? 1 : 0
        k++
      }
      slot++
    }
    this.entStart[slot] = k
    // Listed words: slot s is listWords[s]; the phrases' words follow.
    this.listWords.push(...byWord.keys())
    const listed = (word: number) => {
      let i = this.listWords.indexOf(word)
      if (i < 0) i = this.listWords.push(word) - 1
      return i
    }
    for (const p of this.phrases) {
      p.firstList = listed(p.first)
      p.lastList = listed(p.last)
    }
    this.cursors = new Int32Array(this.listWords.length)
    this.listThreshold = 2 * RECORD_WORDS_PER_LOOKUP * Math.max(1, this.listWords.length)
    this.listLength = 2 * RECORD_WORDS_PER_LOOKUP * 2 ** Math.floor(Math.log2(Math.max(1, this.listWords.length)))
    this.count = new Int32Array(plan.terms.length)
    this.minTypo = new Int32Array(plan.terms.length)
    this.minWeight = new Int32Array(plan.terms.length)
    this.minPos = new Int32Array(plan.terms.length)
    this.exactFound = new Uint8Array(plan.terms.length)
  }

  /** Double the occurrence arrays. */
  private grow(): void {
    const size = this.term.length + 1
    this.term = grown(this.term, size)
    this.at = grown(this.at, size)
    this.typo = grown(this.typo, size)
    this.span = grown(this.span, size)
    this.flags = grown(this.flags, size)
  }

  private push(term: number, at: number, typo: number, span: number, flags: number): void {
    if (this.n === this.term.length) this.grow()
    const i = this.n++
    this.term[i] = term
    this.at[i] = at
    this.typo[i] = typo
    this.span[i] = span
    this.flags[i] = flags
    this.count[term]!++
  }

  /** A document's occurrences of the query's derivations: from its record, or from the words' lists when it is long. */
  load(docid: number): void {
    if (lookup.generation !== this.generation) throw new Error('Matcher used after another query started')
    const count = this.count
    for (let t = 0; t < count.length; t++) count[t] = 0
    const forward = this.forward
    if (docid >= forward.limit) { this.n = 0; this.from = this.to = 0; return }
    const from = this.from = forward.start[docid]!
    const to = this.to = forward.end[docid]!
    const lists = to - from > this.listThreshold ? (this.lists ??= this.index.occurrences(this.listWords, this.listLength)) : null
    if (lists) this.collectListed(docid, lists)
    else this.scanRecord(from, to)
    // A phrase must hold within the searched fields. Its documents were found when the query was planned: only a
    // restriction to some fields needs the record checked again (a phrase of frequent words, such as a split
    // word, is in most records, and checking each cost as much as the scan above).
    const allowed = this.plan.fieldAllowed
    const data = forward.data
    for (const p of this.phrases) {
      if (!p.docids.has(docid)) continue
      if (allowed !== null && !phraseAt(data, from, to, p.words, this.byAttribute, p.conditions, allowed)) continue
      const flags = p.exact ? EXACT : 0
      if (lists) {
        this.pushListed(docid, lists, p.firstList, p.term, p.typo, flags | ROLE_FIRST)
        this.pushListed(docid, lists, p.lastList, p.term, p.typo, flags | ROLE_LAST)
        continue
      }
      for (let k = from; k < to; k += 2) {
        const at = data[k + 1]!
        if (allowed && !allowed[at >>> 16]) continue
        if (data[k] === p.first) this.push(p.term, at, p.typo, 1, flags | ROLE_FIRST)
        if (data[k] === p.last) this.push(p.term, at, p.typo, 1, flags | ROLE_LAST)
      }
    }
  }

  /** The occurrences of the query's derivations in `data[from .. to)`: the record scanned once. */
  private scanRecord(from: number, to: number): void {
    const data = this.forward.data
    const { bits, slot } = lookup
    const count = this.count
    const allowed = this.plan.fieldAllowed
    const exactFields = this.plan.exactFields
    const { entStart, entTerm, entTypo, entSpan, entExact } = this
    let { term: oTerm, at: oAt, typo: oTypo, span: oSpan, flags: oFlags } = this
    let n = 0
    for (let k = from; k < to; k += 2) {
      const word = data[k]!
      if ((bits[word >>> 5]! & (1 << (word & 31))) === 0) continue
      const at = data[k + 1]!
      const fid = at >>> 16
      if (allowed !== null && allowed[fid] !== 1) continue
      const s = slot[word]!
      for (let e = entStart[s]!, end = entStart[s + 1]!; e < end; e++) {
        const typo = entTypo[e]!
        const span = entSpan[e]!
        const exact = entExact[e]!
        // Typo derivations never match in `disableOnAttributes` fields.
        if (exactFields !== null && exactFields[fid] === 1 && typo > (span > 1 ? span : 0) && exact === 0) continue
        if (n === oTerm.length) {
          this.n = n
          this.grow()
          ;({ term: oTerm, at: oAt, typo: oTypo, span: oSpan, flags: oFlags } = this)
        }
        const t = entTerm[e]!
        oTerm[n] = t
        oAt[n] = at
        oTypo[n] = typo
        oSpan[n] = span
        oFlags[n] = exact
        n++
        count[t]!++
      }
    }
    this.n = n
  }

  /** The same occurrences as `scanRecord`, read from each derivation word's list (grouped by word, not in record order: no rule reads the order). */
  private collectListed(docid: number, lists: readonly (WordOccurrences | null)[]): void {
    this.n = 0
    const allowed = this.plan.fieldAllowed
    const exactFields = this.plan.exactFields
    const { entStart, entTerm, entTypo, entSpan, entExact } = this
    const slots = entStart.length - 1
    for (let s = 0; s < slots; s++) {
      const k = this.seek(lists, s, docid)
      if (k < 0) continue
      const list = lists[s]!
      for (let o = list.offsets[k]!, end = list.offsets[k + 1]!; o < end; o++) {
        const at = list.ats[o]!
        const fid = at >>> 16
        if (allowed !== null && allowed[fid] !== 1) continue
        for (let e = entStart[s]!, last = entStart[s + 1]!; e < last; e++) {
          const typo = entTypo[e]!
          const span = entSpan[e]!
          const exact = entExact[e]!
          if (exactFields !== null && exactFields[fid] === 1 && typo > (span > 1 ? span : 0) && exact === 0) continue
          this.push(entTerm[e]!, at, typo, span, exact)
        }
      }
    }
  }

  /** Where `docid` is in listed word `w`'s documents (-1: not there), moving that list's cursor. */
  private seek(lists: readonly (WordOccurrences | null)[], w: number, docid: number): number {
    const list = lists[w]
    if (!list) return -1
    const k = (this.cursors[w] = seekDoc(list.docs, docid, this.cursors[w]!))
    return k < list.docs.length && list.docs[k] === docid ? k : -1
  }

  /** A phrase's occurrences of one of its words (list `w`), in the searched fields. */
  private pushListed(docid: number, lists: readonly (WordOccurrences | null)[], w: number, term: number, typo: number, flags: number): void {
    const k = this.seek(lists, w, docid)
    if (k < 0) return
    const list = lists[w]!
    const allowed = this.plan.fieldAllowed
    for (let o = list.offsets[k]!, end = list.offsets[k + 1]!; o < end; o++) {
      const at = list.ats[o]!
      if (allowed && !allowed[at >>> 16]) continue
      this.push(term, at, typo, 1, flags)
    }
  }

  /** The number of words the loaded document has in a field (all its words, searched or not). */
  fieldWords(fid: number): number {
    const data = this.forward.data
    let count = 0
    for (let k = this.from + 1; k < this.to; k += 2) if (data[k]! >>> 16 === fid) count++
    return count
  }

  /** Whether the loaded document has every term of `kept`. */
  hasAll(kept: readonly Term[]): boolean {
    for (const t of kept) if (this.count[t.index] === 0) return false
    return true
  }

  info(kept: readonly Term[]): KeptInfo {
    let info = this.keptInfo.get(kept)
    if (!info) this.keptInfo.set(kept, (info = keptInfo(this.plan, kept)))
    return info
  }

  /**
   * The cost components of the loaded document for the kept terms (`skipped`: query words dropped by the words
   * rule), written to `out` (see `rules/components.ts`).
   */
  measure(kept: readonly Term[], skipped: number, out: Int32Array): void {
    const info = this.info(kept)
    const { plan, n, term, typo, flags, at, minTypo, minWeight, minPos, exactFound } = this
    const { mask, keptIndex, keptPosition, keptWords } = info
    const K = keptIndex.length
    const maxWeight = plan.maxWeight
    for (let k = 0; k < K; k++) {
      const t = keptIndex[k]!
      minTypo[t] = 0x7fffffff
      minWeight[t] = maxWeight
      minPos[t] = 10
      exactFound[t] = 0
    }
    // The cheapest typo of each kept term; later rules only see the occurrences at that cost.
    for (let i = 0; i < n; i++) {
      const t = term[i]!
      if (mask[t] === 1 && typo[i]! < minTypo[t]!) minTypo[t] = typo[i]!
    }
    // Attribute rank and word position from each term's best occurrences (a phrase by its first word); exactness
    // from any occurrence of its own word.
    const weights = plan.weights
    for (let i = 0; i < n; i++) {
      const t = term[i]!
      if (mask[t] !== 1) continue
      const f = flags[i]!
      if ((f & EXACT) !== 0) exactFound[t] = 1
      if (typo[i] !== minTypo[t] || (f & ROLE_LAST) !== 0) continue
      const a = at[i]!
      const field = a >>> 16
      const w = field < weights.length ? weights[field]! : maxWeight
      if (w < minWeight[t]!) minWeight[t] = w
      const c = positionCost(a & 0xffff, keptPosition[t]!)
      if (c < minPos[t]!) minPos[t] = c
    }
    let typoCost = 0
    let fid = 0
    let pos = 0
    let missing = 0
    for (let k = 0; k < K; k++) {
      const t = keptIndex[k]!
      if (minTypo[t] === 0x7fffffff) minTypo[t] = 0
      typoCost += minTypo[t]!
      fid += minWeight[t]! * keptWords[t]!
      pos += minPos[t]!
      if (exactFound[t] === 0) missing += keptWords[t]!
    }
    // Proximity.
    let prox = 0
    const pairs = info.pairs
    for (let p = 0; p < pairs.length; p += 3) prox += pairCost(this, pairs[p]!, pairs[p + 1]!, pairs[p + 2]!)
    out[C_SKIPPED] = skipped
    out[C_TYPO] = typoCost
    out[C_TYPO_MAX] = typoCost > info.typoMax ? typoCost : info.typoMax
    out[C_PROX] = prox
    out[C_PROX_MAX] = pairs.length
    out[C_FID] = fid
    out[C_FID_MAX] = info.fidMax
    out[C_POS] = pos
    out[C_POS_MAX] = info.posMax
    out[C_EXACT_TYPE] = info.exactEligible ? exactAttribute(this, kept, info.wordsMax) : NO_EXACT_MATCH
    out[C_MISSING] = missing
    out[C_WORDS_MAX] = info.wordsMax
  }
}

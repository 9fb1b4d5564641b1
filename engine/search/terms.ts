/**
 * Query terms and their derivations, as milli's query graph builds them (`query_term/*`, `query_graph.rs`):
 * each located term gets the words that can stand for it in a document, each with a typo cost and whether it is
 * the term's own word (exact):
 * - the word itself (0), its prefixes' words when it is the last term (0, at most 1,000), its synonyms (0);
 * - words within 1 typo (cost 1, same first letter; at most 150) and 2 typos (cost 2; words within 1 typo with
 *   another first letter also count as 2; at most 50), by word length and `typoTolerance`;
 * - its best split into two adjacent words (cost 1);
 * - concatenations (ngrams) of 2 and 3 consecutive terms, with n − 1 fewer typos, attached to every term they
 *   cover, with a typo cost of n + k on the first;
 * - phrases (quoted, split words, multi-word synonyms) are sequences of words at consecutive positions.
 * A term's documents are the union of its derivations' documents (phrases verified on positions).
 */
import type { Settings } from '../settings/index.js'
import { RoaringBitmap32, coversField, searchOnCovers, type Bitmap, type InvertedIndex } from '../inverted/index.js'
import { normalize, type Tokenizer } from '../tokenizer/index.js'
import { parseQueryText, type ParsedQueryText, type QueryTerm, type QueryToken } from './query-text.js'
import { phraseDocids } from './phrase.js'
import { synonymTable, type SynonymTable } from './synonyms.js'

export { phraseAt, phraseConditions, phraseDocids, type PhraseCondition } from './phrase.js'

export const MAX_PREFIX_COUNT = 1000
export const MAX_ONE_TYPO = 150
export const MAX_TWO_TYPOS = 50
export const MAX_WORD_BYTES = 250
/** Prefix unions kept per index (least recently used dropped first), for prefixes of at least that many words. */
const PREFIX_CACHE_SIZE = 1024
const PREFIX_CACHE_MIN_WORDS = 16

/** One word standing for a term. */
export interface WordDerivation {
  wordId: number
  /** Typo cost (ngram base included). */
  typo: number
  /** The term's own word (not a typo, prefix, synonym or ngram). */
  exact: boolean
  /** A prefix derivation (highlighted on the prefix only). */
  prefix: boolean
  /** Query terms this derivation covers (ngrams cover 2 or 3). */
  span: number
}

/** A sequence of words (null: a stop word hole) standing for a term. */
export interface PhraseDerivation {
  words: (number | null)[]
  typo: number
  exact: boolean
  docids: Bitmap
}

export interface Term {
  /** Index in query order. */
  index: number
  /** Query position of the term's (first) word. */
  position: number
  /** Words this term occupies in the query (a phrase's words, stop word holes excluded). */
  wordCount: number
  /** The normalized original word (null for a phrase). */
  original: string | null
  /** Whether the original word (or phrase) is in the index. */
  originalIndexed: boolean
  prefix: boolean
  isPhrase: boolean
  words: WordDerivation[]
  phrases: PhraseDerivation[]
  /** The highest typo cost a derivation of this term could have (milli's max_typo_cost). */
  maxTypo: number
  docids: Bitmap
  /** For highlighting: normalized words (and prefixes) matching this term. */
  matchWords: Map<string, { prefix: boolean; charCount: number }>
}

/** An ngram that stands for `n` consecutive terms from `start`, and its highest typo cost. */
export interface NgramPath {
  start: number
  n: number
  maxTypo: number
}

export interface QueryPlan {
  parsed: ParsedQueryText
  terms: Term[]
  ngrams: NgramPath[]
  /** Documents excluded by negative terms. */
  excluded: Bitmap | null
  /** Fields (ids) searched, or null for all. */
  fieldAllowed: Uint8Array | null
  /** Fields (ids) where typo derivations never match (`disableOnAttributes`). */
  exactFields: Uint8Array | null
  /** Field id → ranking weight. */
  weights: Int32Array
  maxWeight: number
}

export function allowedTypos(word: string, settings: Settings): number {
  const tt = settings.typoTolerance
  if (!tt.enabled) return 0
  if (tt.disableOnWords.some((w) => normalize(w) === word)) return 0
  if (tt.disableOnNumbers && /^[0-9]+$/.test(word)) return 0
  const len = [...word].length
  if (len < tt.minWordSizeForTypos.oneTypo) return 0
  if (len < tt.minWordSizeForTypos.twoTypos) return 1
  return 2
}

/** Tokens of the query text for `parseQueryText`. */
export function queryTokens(tokenizer: Tokenizer, text: string, locales: readonly string[] | null): QueryToken[] {
  return tokenizer.tokenize(text, locales).map((t) => (t.kind === 'separator'
    ? { lemma: t.text, kind: 'separator', separatorKind: t.hard ? 'hard' : 'soft' }
    : { lemma: t.text, kind: t.kind }))
}

/**
 * The union of the documents of the words starting with `prefix` (cached per published view); `words`: only
 * those (the first MAX_PREFIX_COUNT of a larger set).
 */
function prefixDocids(index: InvertedIndex, prefix: string, words: readonly string[] | null): Bitmap {
  const cache = index.prefixCache
  let cached = cache.get(prefix)
  if (cached) {
    // Most recently used last.
    cache.delete(prefix)
    cache.set(prefix, cached)
    return cached
  }
  const ids: number[] = []
  const add = (word: string) => {
    const id = index.wordId(word)
    if (id !== undefined) ids.push(id)
  }
  if (words) words.forEach(add)
  else index.dictionary.forEachWithPrefix(prefix, add)
  const union = index.postings.union(ids)
  cached = union.docids
  // Only unions of many words are worth keeping (milli keeps prefix postings for prefixes of many words too).
  if (union.words >= PREFIX_CACHE_MIN_WORDS) {
    if (cache.size >= PREFIX_CACHE_SIZE) cache.delete(cache.keys().next().value!)
    cache.set(prefix, cached)
  }
  return cached
}

interface Builder {
  words: Map<number, WordDerivation>
  phrases: PhraseDerivation[]
  bitmaps: Bitmap[]
  matchWords: Map<string, { prefix: boolean; charCount: number }>
  /** `proximityPrecision: byAttribute`: a phrase's words only need to share a field. */
  byAttribute: boolean
}

/** Adds a word derivation; its documents too unless `union` (a prefix's words: their union is added once). */
function addWord(b: Builder, index: InvertedIndex, word: string, d: Omit<WordDerivation, 'wordId'>, union = false): void {
  const id = index.wordId(word)
  if (id === undefined) return
  if (!index.postings.has(id)) return
  const existing = b.words.get(id)
  if (existing && (existing.typo < d.typo || (existing.typo === d.typo && existing.exact))) return
  b.words.set(id, { wordId: id, ...d })
  if (!union) b.bitmaps.push(index.postings.get(id)!)
}

function addPhrase(b: Builder, index: InvertedIndex, words: readonly (string | null)[], typo: number, exact: boolean): void {
  const ids: (number | null)[] = []
  for (const w of words) {
    if (w === null) { ids.push(null); continue }
    const id = index.wordId(w)
    if (id === undefined || !index.postings.has(id)) return
    ids.push(id)
  }
  const docids = phraseDocids(index, ids, b.byAttribute)
  if (docids.isEmpty) return
  b.phrases.push({ words: ids, typo, exact, docids })
  b.bitmaps.push(docids)
}

/** The split of `word` into two indexed words that most often appear adjacent (milli's `split_best_frequency`). */
function bestSplit(index: InvertedIndex, word: string): [string, string] | null {
  const chars = [...word]
  let best: [string, string] | null = null
  let bestCount = 0
  for (let i = 1; i < chars.length; i++) {
    const left = chars.slice(0, i).join('')
    const right = chars.slice(i).join('')
    const l = index.wordId(left)
    const r = index.wordId(right)
    if (l === undefined || r === undefined || !index.postings.has(l) || !index.postings.has(r)) continue
    if (index.postings.get(l)!.andCardinality(index.postings.get(r)!) <= bestCount) continue
    const count = phraseDocids(index, [l, r]).size
    if (count > bestCount) {
      bestCount = count
      best = [left, right]
    }
  }
  return best
}

function addSynonyms(b: Builder, index: InvertedIndex, table: SynonymTable, key: string, typo: number): void {
  for (const alt of table.map.get(key) ?? []) {
    if (alt.length === 1) addWord(b, index, alt[0]!, { typo, exact: false, prefix: false, span: 1 })
    else addPhrase(b, index, alt, typo, false)
    for (const w of alt) b.matchWords.set(w, { prefix: false, charCount: [...w].length })
  }
}

/** A word within the allowed typos of a query word, and its typo cost. */
interface TypoMatch { word: string; typo: number }

/**
 * The typo derivations of a word: within one typo with the same first letter (cost 1); with two typos allowed,
 * within two with the same first letter and within one with another (cost 2). In the dictionary's order, at most
 * MAX_ONE_TYPO of cost 1 and MAX_TWO_TYPOS of cost 2.
 */
function typoMatches(index: InvertedIndex, word: string, typos: number, prefix: boolean): TypoMatch[] {
  if (typos <= 0 || Buffer.byteLength(word) > MAX_WORD_BYTES) return []
  const out: TypoMatch[] = []
  let twos = 0
  for (const m of index.dictionary.fuzzy(word, typos, { prefix, sameFirst: true, quota: [0, MAX_ONE_TYPO, MAX_TWO_TYPOS] })) {
    if (m.distance === 2) twos++
    out.push({ word: m.word, typo: m.distance })
  }
  if (typos >= 2 && twos < MAX_TWO_TYPOS) {
    for (const m of index.dictionary.fuzzy(word, 1, { prefix, otherFirst: true, quota: [0, MAX_TWO_TYPOS - twos] })) out.push({ word: m.word, typo: 2 })
  }
  return out
}

function addTypos(b: Builder, index: InvertedIndex, matches: readonly TypoMatch[], queryWord: string, prefix: boolean, base: number, span: number): void {
  const charCount = [...queryWord].length
  for (const m of matches) {
    addWord(b, index, m.word, { typo: base + m.typo, exact: false, prefix: false, span })
    b.matchWords.set(m.word, { prefix, charCount })
  }
}

/** The indexed words starting with `word` (itself included), at most MAX_PREFIX_COUNT. */
function prefixWords(index: InvertedIndex, word: string): string[] {
  if (Buffer.byteLength(word) > MAX_WORD_BYTES) return []
  return index.dictionary.withPrefix(word, MAX_PREFIX_COUNT)
}

/**
 * Adds the words starting with `word` (itself excluded) and their documents: the union of the postings of every
 * word with that prefix, kept per published view (the on-demand form of milli's prefix postings).
 */
function addPrefixes(b: Builder, index: InvertedIndex, word: string, words: readonly string[], base: number, span: number): void {
  for (const w of words) if (w !== word) addWord(b, index, w, { typo: base, exact: false, prefix: true, span }, true)
  if (words.length > 0) b.bitmaps.push(prefixDocids(index, word, words.length < MAX_PREFIX_COUNT ? null : words))
  b.matchWords.set(word, { prefix: true, charCount: [...word].length })
}

export interface PlanOptions {
  attributesToSearchOn: string[] | null
  locales: string[] | null
}

/** Field weights from `searchableAttributes` (all 0 with `*`: milli gives every field the same weight then). */
function fieldWeights(index: InvertedIndex, settings: Settings): { weights: Int32Array; maxWeight: number } {
  const weights = new Int32Array(index.fields.length)
  const searchable = settings.searchableAttributes
  let maxWeight = 0
  if (searchable.includes('*')) return { weights, maxWeight }
  index.fields.forEach((field, fid) => {
    const w = searchable.findIndex((s) => coversField(s, field))
    weights[fid] = w < 0 ? searchable.length : w
    if (w >= 0 && w > maxWeight) maxWeight = w
  })
  return { weights, maxWeight }
}

function fieldsMatching(index: InvertedIndex, names: readonly string[]): Uint8Array {
  const out = new Uint8Array(index.fields.length)
  index.fields.forEach((field, fid) => {
    if (names.some((s) => searchOnCovers(s, field))) out[fid] = 1
  })
  return out
}

/** Derivations for every term of the query text. */
export function planQuery(index: InvertedIndex, settings: Settings, tokenizer: Tokenizer, text: string, options: PlanOptions): QueryPlan {
  const parsed = parseQueryText(text, (t) => queryTokens(tokenizer, t, options.locales))
  const prefixSearch = settings.prefixSearch !== 'disabled'
  const synonyms = synonymTable(settings, tokenizer)
  const located: QueryTerm[] = parsed.located
  const byAttribute = settings.proximityPrecision === 'byAttribute'
  const builders: Builder[] = located.map(() => ({ words: new Map(), phrases: [], bitmaps: [], matchWords: new Map(), byAttribute }))
  const terms: Term[] = []
  located.forEach((lt, i) => {
    const b = builders[i]!
    if (lt.type === 'phrase') {
      const ids = lt.words
      addPhrase(b, index, ids, 0, true)
      for (const w of ids) if (w !== null) b.matchWords.set(w, { prefix: false, charCount: [...w].length })
      terms.push(term(i, lt.start, ids.filter((w) => w !== null).length, null, b.phrases.length > 0, false, true, 0))
      return
    }
    const word = lt.word
    if (Buffer.byteLength(word) > MAX_WORD_BYTES) {
      // Longer than any indexed word: milli gives it an empty term (no derivation, no split, no highlight), which
      // also keeps a huge word from costing more than linear time.
      terms.push(term(i, lt.position, 1, word, false, false, false, 0))
      return
    }
    const prefix = lt.prefix && prefixSearch
    const typos = allowedTypos(word, settings)
    addWord(b, index, word, { typo: 0, exact: true, prefix: false, span: 1 })
    b.matchWords.set(word, { prefix, charCount: [...word].length })
    if (prefix) addPrefixes(b, index, word, prefixWords(index, word), 0, 1)
    addSynonyms(b, index, synonyms, word, 0)
    addTypos(b, index, typoMatches(index, word, typos, prefix), word, prefix, 0, 1)
    // Split words are derived even when typos are off (milli does not gate them on typo tolerance).
    const split = bestSplit(index, word)
    if (split) {
      addPhrase(b, index, split, 1, false)
      for (const w of split) b.matchWords.set(w, { prefix: false, charCount: [...w].length })
    }
    terms.push(term(i, lt.position, 1, word, index.docids(word) !== undefined, prefix, false, Math.max(typos, 1)))
  })
  const ngrams: NgramPath[] = []
  // Ngrams: 2 and 3 consecutive word terms (consecutive query positions), concatenated.
  for (let n = 2; n <= 3; n++) {
    for (let i = 0; i + n <= located.length; i++) {
      const group = located.slice(i, i + n)
      if (!group.every((t) => t.type === 'word')) continue
      const ws = group as Extract<QueryTerm, { type: 'word' }>[]
      if (!ws.every((t, k) => k === 0 || t.position === ws[k - 1]!.position + 1)) continue
      const word = ws.map((t) => t.word).join('')
      if (Buffer.byteLength(word) > MAX_WORD_BYTES) continue
      const prefix = ws[n - 1]!.prefix && prefixSearch
      const typos = Math.max(0, allowedTypos(word, settings) - (n - 1))
      // Derivations of the concatenation, found once and attached to each term it covers.
      const prefixes = prefix ? prefixWords(index, word) : []
      const typoed = typoMatches(index, word, typos, prefix)
      let found = (index.docids(word) ? 1 : 0) + prefixes.filter((w) => w !== word).length + typoed.length
      for (let k = 0; k < n; k++) {
        const b = builders[i + k]!
        const base = k === 0 ? n : 0
        const phrasesBefore = b.phrases.length
        addWord(b, index, word, { typo: base, exact: false, prefix: false, span: n })
        if (prefix) addPrefixes(b, index, word, prefixes, base, n)
        addTypos(b, index, typoed, word, prefix, base, n)
        addSynonyms(b, index, synonyms, ws.map((t) => t.word).join(' '), base)
        found += b.phrases.length - phrasesBefore
        b.matchWords.set(word, { prefix, charCount: [...word].length })
      }
      // The ngram is a path of the query graph only when the index has a word for it.
      if (found > 0) ngrams.push({ start: i, n, maxTypo: n + typos })
    }
  }
  terms.forEach((t, i) => {
    const b = builders[i]!
    t.words = [...b.words.values()]
    t.phrases = b.phrases
    t.docids = b.bitmaps.length === 0 ? new RoaringBitmap32() : b.bitmaps.length === 1 ? b.bitmaps[0]! : RoaringBitmap32.orMany(b.bitmaps)
    t.matchWords = b.matchWords
  })
  // Negative terms: exact words and phrases only.
  let excluded: Bitmap | null = null
  const negatives: Bitmap[] = []
  for (const neg of parsed.negative) {
    if (neg.type === 'word') {
      const d = index.docids(neg.word)
      if (d) negatives.push(d)
    } else {
      const ids: (number | null)[] = []
      let missing = false
      for (const w of neg.words) {
        if (w === null) { ids.push(null); continue }
        const id = index.wordId(w)
        if (id === undefined) { missing = true; break }
        ids.push(id)
      }
      if (!missing) negatives.push(phraseDocids(index, ids))
    }
  }
  if (negatives.length > 0) excluded = RoaringBitmap32.orMany(negatives)
  const { weights, maxWeight } = fieldWeights(index, settings)
  const disabled = settings.typoTolerance.disableOnAttributes
  return {
    parsed,
    terms,
    ngrams,
    excluded,
    fieldAllowed: options.attributesToSearchOn ? fieldsMatching(index, options.attributesToSearchOn) : null,
    exactFields: disabled.length > 0 ? fieldsMatching(index, disabled) : null,
    weights,
    maxWeight,
  }
}

function term(index: number, position: number, wordCount: number, original: string | null, originalIndexed: boolean, prefix: boolean, isPhrase: boolean, maxTypo: number): Term {
  return { index, position, wordCount, original, originalIndexed, prefix, isPhrase, words: [], phrases: [], maxTypo, docids: new RoaringBitmap32(), matchWords: new Map() }
}

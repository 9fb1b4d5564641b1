/**
 * The inverted index of one index (by internal id): what keyword search reads.
 *
 * - word id → word, and word → the documents containing it (`postings`: a bitmap, or ids in an arena for the
 *   long tail of rare words, see postings.ts);
 * - per document, its words in field and position order (`forward`, pairs of `wordId, fieldId << 16 | position`):
 *   what proximity, attribute rank, word position, exactness and phrases are computed from, and what a deletion
 *   or replacement needs to take a document out of the postings;
 * - field id → dotted field name (ids are stable; ranking weights come from the settings at search time);
 * - the term dictionary (sorted words) for prefix and typo derivations, and a cache of prefix unions.
 *
 * Persistence: see rows.ts. The whole index is loaded into memory when first used (memory-first reads); a batch edits a draft and its writes
 * go in the batch's atomic commit; `publish` then applies it in one synchronous step, so a search sees the old or
 * the new index, never a mix.
 */
import roaring from '../util/roaring.js'
import { keys, type Store } from '../storage/index.js'
import { Dictionary, type DictionaryView } from './dictionary.js'
import { ForwardRecords, type ForwardView } from './forward.js'
import { FIRST_POSITION_COST, POSITION_COSTS } from './positions.js'
import { Postings, type PostingsView } from './postings.js'
import { OccurrenceLists, type WordOccurrences } from './occurrences.js'
import { decodeForward, type Meta } from './rows.js'
import { WordIds } from './word-ids.js'

export { Dictionary, type FuzzyMatch } from './dictionary.js'
export { ForwardRecords } from './forward.js'
export { InvertedDraft } from './draft.js'
export { Postings, SMALL_POSTING } from './postings.js'
export { seekDoc, type WordOccurrences } from './occurrences.js'
export { coversField, searchOnCovers, extractWords, extractionConfig, flattenLeaves, isSearchable, tokenizerFor, type ExtractedChunk, type ExtractionConfig } from './extract.js'

const { RoaringBitmap32 } = roaring
export type Bitmap = InstanceType<typeof RoaringBitmap32>
export { RoaringBitmap32 }

/** Words in at least this many documents keep their per-field postings once computed. */
const FREQUENT_WORD_DOCS = 1000

/** Words whose per-field (or per-position) postings are kept at once, per view; the oldest kept go first. */
const KEPT_WORDS = 4096

/**
 * A published inverted index as another thread is handed it: a few arrays over SharedArrayBuffers (no copy of
 * their bytes), the field names, and the version it is of. It stays readable as long as the thread holds it: a
 * later publish leaves its bytes as they are (see forward.ts, bitmap-arena.ts).
 */
export interface InvertedView {
  indexId: number
  version: number
  fields: string[]
  nextWordId: number
  forward: ForwardView
  postings: PostingsView
  dictionary: DictionaryView
}

function keep<V>(cache: Map<number, V>, key: number, value: V): void {
  if (cache.size >= KEPT_WORDS) cache.delete(cache.keys().next().value!)
  cache.set(key, value)
}


export class InvertedIndex {
  /**
   * word id → word (ids are never reused; a word whose postings emptied keeps its id). This and the postings, word
   * ids and dictionary are replaced whole by a publish that prepared them aside (see finalize.ts): a reader that
   * holds one keeps a consistent old view.
   */
  words: string[] = []
  wordIds = new WordIds()
  /** word id → documents (undefined: the word is in no live document). */
  postings = new Postings()
  /** docid → forward record (one arena; a first batch's arena is taken over whole). */
  forward = new ForwardRecords()
  readonly fields: string[] = []
  readonly fieldIds = new Map<string, number>()
  dictionary = new Dictionary()
  nextWordId = 0
  /** Bumped at each publish (caches keyed on the index's content check it). */
  version = 0
  /** Prefix → union of the postings of the words it starts (built on demand, dropped at publish). */
  readonly prefixCache = new Map<string, Bitmap>()
  /** Word id → its documents per field id, for frequent words (built on demand, dropped at publish). */
  private readonly fieldPostingsCache = new Map<number, Bitmap[]>()
  /** Word id → its documents by best position cost, for frequent words (likewise). */
  private readonly positionPostingsCache = new Map<number, Bitmap[]>()
  /** Word id → its occurrences document by document, for the words searches ranked long documents by (likewise). */
  private readonly occurrenceLists = new OccurrenceLists()

  constructor(readonly indexId: number) {}

  /** Start a new published view: caches of the old one are dropped. */
  newView(): void {
    this.version++
    this.prefixCache.clear()
    this.fieldPostingsCache.clear()
    this.positionPostingsCache.clear()
    this.occurrenceLists.clear()
  }

  /** Each word's occurrences, document by document, in the records longer than `minLength` (null: none); see occurrences.ts. */
  occurrences(words: readonly number[], minLength = 0): (WordOccurrences | null)[] {
    return this.occurrenceLists.of({ forward: this.forward, docsOf: (word) => this.postings.get(word), union: (bitmaps) => RoaringBitmap32.orMany(bitmaps) }, words, minLength)
  }

  /** A word's id (undefined: never indexed). */
  wordId(word: string): number | undefined {
    return this.wordIds.get(word) ?? this.dictionary.idOf(word)
  }

  docids(word: string): Bitmap | undefined {
    const id = this.wordId(word)
    return id === undefined ? undefined : this.postings.get(id)
  }

  /**
   * The published index for readers on other threads (the words and trie in shared memory are built on the first
   * call after a publish that changed the dictionary; the rest is handed as it is). Take it right after a publish,
   * in the same turn: it is the view of `version`.
   */
  view(): InvertedView {
    return {
      indexId: this.indexId,
      version: this.version,
      fields: this.fields.slice(),
      nextWordId: this.nextWordId,
      forward: this.forward.view(),
      postings: this.postings.view(),
      dictionary: this.dictionary.view((word) => this.wordIds.get(word)!),
    }
  }

  /** A read-only index over a view handed over by another thread (its word ids come from the dictionary). */
  static fromView(view: InvertedView): InvertedIndex {
    const index = new InvertedIndex(view.indexId)
    view.fields.forEach((f, i) => { index.fields[i] = f; index.fieldIds.set(f, i) })
    index.nextWordId = view.nextWordId
    index.version = view.version
    index.forward = ForwardRecords.fromView(view.forward)
    index.postings = Postings.fromView(view.postings)
    index.dictionary = Dictionary.fromView(view.dictionary)
    return index
  }

  /**
   * The documents holding a word in each field (index: field id), from the forward records: milli's
   * `word_fid_docids`, computed on demand and kept for frequent words.
   */
  fieldPostings(wordId: number): Bitmap[] {
    const cached = this.fieldPostingsCache.get(wordId)
    if (cached) return cached
    const docs = this.postings.get(wordId)
    const lists: number[][] = []
    if (docs) {
      const { data, start, end } = this.forward
      for (const docid of docs) {
        let last = -1
        for (let k = start[docid]!, to = end[docid]!; k < to; k += 2) {
          if (data[k] !== wordId) continue
          const fid = data[k + 1]! >>> 16
          if (fid === last) continue
          last = fid
          const list = lists[fid] ?? (lists[fid] = [])
          if (list[list.length - 1] !== docid) list.push(docid)
        }
      }
    }
    const out: Bitmap[] = []
    for (let fid = 0; fid < lists.length; fid++) out[fid] = lists[fid] ? RoaringBitmap32.from(lists[fid]!) : new RoaringBitmap32()
    if (this.isFrequent(wordId)) keep(this.fieldPostingsCache, wordId, out)
    return out
  }

  /** Whether a word's per-field (and, with `positions`, per-position) postings are already kept. */
  hasKeptPlaces(wordId: number, positions: boolean): boolean {
    return this.fieldPostingsCache.has(wordId) && (!positions || this.positionPostingsCache.has(wordId))
  }

  /** Whether a word's per-field and per-position postings are kept once computed (it is in many documents). */
  isFrequent(wordId: number): boolean {
    return this.postings.size(wordId) >= FREQUENT_WORD_DOCS
  }

  /**
   * The documents holding a word by the position cost of its best occurrence in any field, for a term first in the
   * query (index: the cost, see positions.ts), from the forward records: what milli reads from
   * `word_position_docids`, computed on demand and kept for frequent words.
   */
  positionPostings(wordId: number): Bitmap[] {
    const cached = this.positionPostingsCache.get(wordId)
    if (cached) return cached
    const docs = this.postings.get(wordId)
    const lists: number[][] = Array.from({ length: POSITION_COSTS }, () => [])
    if (docs) {
      const { data, start, end } = this.forward
      for (const docid of docs) {
        let best = POSITION_COSTS
        for (let k = start[docid]!, to = end[docid]!; k < to && best > 0; k += 2) {
          if (data[k] !== wordId) continue
          const c = FIRST_POSITION_COST[data[k + 1]! & 0xffff]!
          if (c < best) best = c
        }
        if (best < POSITION_COSTS) lists[best]!.push(docid)
      }
    }
    const out = lists.map((list) => new RoaringBitmap32(list))
    if (this.isFrequent(wordId)) keep(this.positionPostingsCache, wordId, out)
    return out
  }

  static async load(store: Store, indexId: number): Promise<InvertedIndex> {
    const index = new InvertedIndex(indexId)
    const range = keys.indexRange(indexId)
    const loaded: string[] = []
    for await (const [key, value] of store.scan('postings', range)) {
      if (key.byteLength === 4) {
        const meta = JSON.parse(value.toString('utf8')) as Meta
        meta.fields.forEach((f, i) => { index.fields[i] = f; index.fieldIds.set(f, i) })
        index.nextWordId = meta.nextWordId
        continue
      }
      const id = keys.readU32(key, 4)
      const len = value.readUInt16BE(0)
      const word = value.toString('utf8', 2, 2 + len)
      index.words[id] = word
      index.wordIds.set(word, id)
      index.postings.set(id, RoaringBitmap32.deserialize(value.subarray(2 + len), 'portable'))
      loaded.push(word)
    }
    for await (const [key, value] of store.scan('positions', range)) index.forward.set(keys.readU32(key, 4), decodeForward(value))
    // The arenas grew by doubling: give back what is beyond a quarter of their use.
    index.forward.maybeCompact()
    index.postings.compact()
    index.dictionary = new Dictionary(loaded)
    return index
  }
}

/** The loaded inverted indexes, by internal index id. */
export class InvertedStore {
  private readonly loaded = new Map<number, Promise<InvertedIndex>>()

  constructor(private readonly store: Store) {}

  get(indexId: number): Promise<InvertedIndex> {
    let index = this.loaded.get(indexId)
    if (!index) {
      index = InvertedIndex.load(this.store, indexId)
      this.loaded.set(indexId, index)
      index.catch(() => this.loaded.delete(indexId))
    }
    return index
  }

  forget(indexId: number): void {
    this.loaded.delete(indexId)
  }
}

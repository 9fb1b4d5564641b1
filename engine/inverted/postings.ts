/**
 * Word id → the documents holding the word, held two ways by size. Natural text has a long tail: on the GCIDE
 * dictionary, 330,000 of 345,000 words are in at most 16 documents, and a roaring bitmap costs about 780 bytes of
 * native memory however few ids it holds (its object, its container, the JS wrapper), so one bitmap per word was
 * most of a loaded index's memory. Words in at most SMALL_POSTING documents keep their ids in one arena (the
 * same run arena the forward records use: no object per word); the others keep a bitmap. A small posting is
 * turned into a bitmap when asked for (a few hundred nanoseconds: a query asks for tens to a few thousand).
 *
 * Bitmaps handed out are never changed afterwards (a draft clones before editing): a search may hold them while
 * a batch publishes. Both kinds are in shared memory (the large ones frozen in bitmap-arena.ts, the small ones in
 * a forward arena), so a reader on another thread is handed them (`view()`), not a copy.
 */
import roaring from '../util/roaring.js'
import { BitmapArena, type BitmapArenaView } from './bitmap-arena.js'
import { ForwardRecords, type ForwardView } from './forward.js'

const { RoaringBitmap32 } = roaring
type Bitmap = InstanceType<typeof RoaringBitmap32>

/** Words in at most this many documents keep their ids in the arena. */
export const SMALL_POSTING = 64

/** Published postings as another thread is handed them. */
export interface PostingsView {
  large: BitmapArenaView
  small: ForwardView
}

export class Postings {
  constructor(
    /** Word id → bitmap, for the words in more than SMALL_POSTING documents. */
    private readonly large = new BitmapArena(),
    /** Word id → its documents' ids in order, for the others. */
    private readonly small = new ForwardRecords(),
  ) {}

  /**
   * A copy to edit while this one is read (a batch that changes many words prepares the next view aside, so its
   * publish is a swap).
   */
  clone(): Postings {
    return new Postings(this.large.clone(), this.small.clone())
  }

  /** The postings as they are now, for readers on other threads (later changes leave what it holds as it is). */
  view(): PostingsView {
    return { large: this.large.view(), small: this.small.view() }
  }

  /** Readers of the current arrays may exist from now on (a publish): the next change copies what it changes. */
  seal(): void {
    this.large.seal()
    this.small.seal()
  }

  /** Read-only postings over a view handed over by another thread. */
  static fromView(view: PostingsView): Postings {
    return new Postings(BitmapArena.fromView(view.large), ForwardRecords.fromView(view.small))
  }

  /** The word's documents (undefined: in no live document). A small posting's bitmap is made for the caller. */
  get(wordId: number): Bitmap | undefined {
    const bitmap = this.large.get(wordId)
    if (bitmap) return bitmap
    const ids = this.small.get(wordId)
    return ids ? new RoaringBitmap32(ids) : undefined
  }

  /** Whether the word is in a live document. */
  has(wordId: number): boolean {
    return this.large.has(wordId) || this.small.has(wordId)
  }

  /** How many documents hold the word. */
  size(wordId: number): number {
    const bitmap = this.large.get(wordId)
    if (bitmap) return bitmap.size
    return wordId < this.small.limit ? this.small.end[wordId]! - this.small.start[wordId]! : 0
  }

  /**
   * Set (undefined or empty: remove) a word's documents. The caller gives the bitmap up: it is freed at once, its
   * ids copied into an arena (the collector cannot see its native memory, so hundreds of thousands of them from
   * one batch or one load would pile up before it ran).
   */
  set(wordId: number, docids: Bitmap | undefined): void {
    if (!docids || docids.isEmpty) {
      if (this.large.has(wordId)) this.large.set(wordId, undefined)
      if (this.small.has(wordId)) this.small.set(wordId, null)
      docids?.dispose()
      return
    }
    if (docids.size <= SMALL_POSTING) {
      if (this.large.has(wordId)) this.large.set(wordId, undefined)
      this.small.set(wordId, docids.toUint32Array())
      docids.dispose()
      return
    }
    if (this.small.has(wordId)) this.small.set(wordId, null)
    this.large.set(wordId, docids)
    if (!docids.isFrozen) docids.dispose()
  }

  /**
   * The documents holding any of the words, and how many of the words are in a document. The small postings are
   * read from the arena into one bitmap (a prefix or a typo can stand for hundreds of rare words: one bitmap each
   * cost more than the union). The result may be a word's own bitmap: callers must not change it.
   */
  union(wordIds: Iterable<number>): { docids: Bitmap; words: number } {
    const parts: Bitmap[] = []
    const runs: number[] = []
    const { start, end, limit } = this.small
    let total = 0
    let words = 0
    for (const w of wordIds) {
      const bitmap = this.large.get(w)
      if (bitmap) { parts.push(bitmap); words++; continue }
      if (w >= limit || end[w]! <= start[w]!) continue
      runs.push(w)
      total += end[w]! - start[w]!
      words++
    }
    if (total > 0) {
      const ids = new Uint32Array(total)
      const data = this.small.data
      let at = 0
      for (const w of runs) {
        ids.set(data.subarray(start[w]!, end[w]!), at)
        at += end[w]! - start[w]!
      }
      parts.push(new RoaringBitmap32(ids))
    }
    const docids = parts.length === 0 ? new RoaringBitmap32() : parts.length === 1 ? parts[0]! : RoaringBitmap32.orMany(parts)
    return { docids, words }
  }

  /** Set a word's documents from their ids in order (at most SMALL_POSTING of them; none: remove). */
  setIds(wordId: number, docids: Uint32Array): void {
    if (docids.length > SMALL_POSTING) throw new Error(`a small posting holds at most ${SMALL_POSTING} documents`)
    if (this.large.has(wordId)) this.large.set(wordId, undefined)
    this.small.set(wordId, docids.length === 0 ? null : docids)
  }

  /** Give back the arena's garbage and spare capacity (after a batch's changes). */
  compact(): void {
    this.large.maybeCompact()
    this.small.maybeCompact()
  }
}

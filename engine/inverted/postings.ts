/**
 * Word id → the documents holding the word, held two ways by size. Natural text has a long tail: on the GCIDE
 * dictionary, 330,000 of 345,000 words are in at most 16 documents, and a roaring bitmap costs about 780 bytes of
 * native memory however few ids it holds (its object, its container, the JS wrapper), so one bitmap per word was
 * most of a loaded index's memory. Words in at most SMALL_POSTING documents keep their ids in one arena (the
 * same run arena the forward records use: no object per word); the others keep a bitmap. A small posting is
 * turned into a bitmap when asked for (a few hundred nanoseconds: a query asks for tens to a few thousand).
 *
 * Bitmaps handed out are never changed afterwards (a draft clones before editing): a search may hold them while
 * a batch publishes.
 */
import roaring from 'roaring'
import { ForwardRecords } from './forward.js'

const { RoaringBitmap32 } = roaring
type Bitmap = InstanceType<typeof RoaringBitmap32>

/** Words in at most this many documents keep their ids in the arena. */
export const SMALL_POSTING = 64

export class Postings {
  /** Word id → bitmap, for the words in more than SMALL_POSTING documents. */
  private readonly large: (Bitmap | undefined)[] = []
  /** Word id → its documents' ids in order, for the others. */
  private readonly small = new ForwardRecords()

  /** The word's documents (undefined: in no live document). A small posting's bitmap is made for the caller. */
  get(wordId: number): Bitmap | undefined {
    const bitmap = this.large[wordId]
    if (bitmap) return bitmap
    const ids = this.small.get(wordId)
    return ids ? new RoaringBitmap32(ids) : undefined
  }

  /** Whether the word is in a live document. */
  has(wordId: number): boolean {
    return this.large[wordId] !== undefined || this.small.has(wordId)
  }

  /** How many documents hold the word. */
  size(wordId: number): number {
    const bitmap = this.large[wordId]
    if (bitmap) return bitmap.size
    return wordId < this.small.limit ? this.small.end[wordId]! - this.small.start[wordId]! : 0
  }

  /** Set (undefined or empty: remove) a word's documents; the caller gives the bitmap up. */
  set(wordId: number, docids: Bitmap | undefined): void {
    if (!docids || docids.isEmpty) {
      this.large[wordId] = undefined
      if (this.small.has(wordId)) this.small.set(wordId, null)
      return
    }
    if (docids.size <= SMALL_POSTING) {
      this.large[wordId] = undefined
      this.small.set(wordId, docids.toUint32Array())
      return
    }
    if (this.small.has(wordId)) this.small.set(wordId, null)
    this.large[wordId] = docids
  }

  /**
   * Set a word's documents from a freshly made bitmap nobody else holds (loading): a small one's native memory is
   * freed at once rather than when the collector gets to it (it cannot see that memory, so a load of hundreds of
   * thousands of words would first pile it up).
   */
  adopt(wordId: number, docids: Bitmap): void {
    this.set(wordId, docids)
    if (docids.size <= SMALL_POSTING) docids.dispose()
  }

  /** Give back the arena's garbage and spare capacity (after a batch's changes). */
  compact(): void {
    this.small.maybeCompact()
  }
}

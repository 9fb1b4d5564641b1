/**
 * A batch's edits to one inverted index (see index.ts), published in one synchronous step.
 */
import { ForwardRecords } from './forward.js'
import { grown } from '../util/typed.js'
import { inTurns, straight, type Steps } from '../util/turns.js'
import type { ExtractedChunk } from './extract.js'
import { WordIds } from './word-ids.js'
import type { InvertedIndex } from './index.js'
import { REMOVED, SET, WRITTEN, finalizeSteps, type DraftState, type FinalizeOptions, type Finalized } from './finalize.js'

/**
 * A batch's edits to one inverted index. Documents are added from extracted chunks (their word and field indexes
 * remapped to the index's ids) or removed; `finalize` computes the new postings of the touched words and the
 * writes (see finalize.ts); `apply` publishes them. Nothing of the base index changes before `apply`. New forward
 * records go in an arena of the draft's own.
 */
export class InvertedDraft implements DraftState {
  // Read by finalize.ts (DraftState); changed only through the methods below.
  /** Words this batch adds, word k with id `base.nextWordId + k`. */
  readonly newWords: string[] = []
  readonly newWordIds = new WordIds()
  nextWordId: number
  readonly newFields: string[] = []
  readonly newFieldIds = new Map<string, number>()
  /** New forward records of the documents marked SET. */
  readonly records = new ForwardRecords()
  /** docid → SET, REMOVED, WRITTEN or 0 (untouched). */
  marks = new Uint8Array(1024)
  private marked = 0
  private scratch = new Uint32Array(256)
  /** docid → 1 when a record of it was written ahead in this batch (its row must go if the record does). */
  ahead = new Uint8Array(1024)

  /**
   * `full`: a rebuild — every document of the base is dropped unless added again. `previous`: the draft this one
   * replaces in the batch (a rebuild after additions), whose records written ahead this one must account for.
   */
  constructor(readonly base: InvertedIndex, readonly full = false, previous?: InvertedDraft) {
    this.nextWordId = base.nextWordId
    if (previous) this.ahead = previous.ahead.slice()
  }

  /** The id of the word `text[start, end)`, a new one if neither the index nor this batch has it yet. */
  private wordIdOf(text: string, start: number, end: number): number {
    let id = this.base.wordIds.getRange(text, start, end) ?? this.newWordIds.getRange(text, start, end)
    if (id === undefined) {
      id = this.nextWordId++
      const word = ownString(text, start, end)
      this.newWords.push(word)
      this.newWordIds.set(word, id)
    }
    return id
  }

  private fieldIdOf(field: string): number {
    let id = this.base.fieldIds.get(field) ?? this.newFieldIds.get(field)
    if (id === undefined) {
      id = this.base.fields.length + this.newFields.length
      if (id > 0xffff) throw new Error('too many searchable fields (65,536)')
      this.newFields.push(field)
      this.newFieldIds.set(field, id)
    }
    return id
  }

  mark(docid: number, mark: number): void {
    this.marks = grown(this.marks, docid + 1)
    if (this.marks[docid] === 0) this.marked++
    this.marks[docid] = mark
  }

  /** Add (or replace) the documents `docids[i]`, whose words are the i-th run of `chunk`. */
  add(docids: readonly number[], chunk: ExtractedChunk): void {
    straight(this.addSteps(docids, chunk))
  }

  /** The same, in turns of a few ms (a chunk of long documents maps tens of thousands of words). */
  addInTurns(docids: readonly number[], chunk: ExtractedChunk): Promise<void> {
    return inTurns(this.addSteps(docids, chunk))
  }

  private *addSteps(docids: readonly number[], chunk: ExtractedChunk): Steps<void> {
    const { text, ends } = chunk.words
    if (text.length !== (ends.length === 0 ? 0 : ends[ends.length - 1]!)) throw new Error('a chunk\'s words do not match their ends')
    const wordMap = new Uint32Array(ends.length)
    for (let i = 0, start = 0; i < ends.length; start = ends[i++]!) {
      if ((i & 1023) === 1023) yield
      wordMap[i] = this.wordIdOf(text, start, ends[i]!)
    }
    const fieldMap = new Uint32Array(chunk.fields.length)
    for (let i = 0; i < chunk.fields.length; i++) fieldMap[i] = this.fieldIdOf(chunk.fields[i]!)
    const { records } = chunk
    let at = 0
    for (let i = 0; i < docids.length; i++) {
      if ((i & 127) === 127) yield
      const docid = docids[i]!
      const count = records[at++]!
      const record = (this.scratch = grown(this.scratch, count * 2, 0))
      for (let k = 0; k < count; k++) {
        record[2 * k] = wordMap[records[at++]!]!
        const v = records[at++]!
        record[2 * k + 1] = ((fieldMap[v >>> 16]! << 16) | (v & 0xffff)) >>> 0
      }
      this.records.set(docid, record.subarray(0, count * 2))
      this.mark(docid, SET)
    }
  }

  /** A document's new record in its stored form (undefined: none). */
  recordBytes(docid: number): Buffer | undefined {
    return this.records.bytes(docid)
  }

  /** The caller wrote the document's current record ahead: the final commit leaves it out. */
  writtenAhead(docid: number): void {
    if (this.marks[docid] === SET) this.marks[docid] = WRITTEN
    this.ahead = grown(this.ahead, docid + 1)
    this.ahead[docid] = 1
  }

  remove(docid: number): void {
    this.records.set(docid, null)
    this.mark(docid, REMOVED)
  }

  /** Documents added, replaced or removed. */
  get touched(): number {
    return this.marked
  }

  /** The batch's writes, and the step that publishes them (the reference: all at once, published in place). */
  finalize(): Finalized {
    return straight(finalizeSteps(this, null))
  }

  /**
   * The same writes and publish, worked out in turns of a few ms (searches on other indexes answer in between),
   * with the postings of new or rebuilt words encoded by `options.encode` (the pool) and, for a batch that changes
   * many words, the next view prepared aside so that the publish is a swap (see finalize.ts).
   */
  finalizeInTurns(options: FinalizeOptions = {}): Promise<Finalized> {
    return inTurns(finalizeSteps(this, options))
  }
}


/**
 * `text[start, end)` as a string of its own: V8 makes a longer slice a view that keeps the whole of `text` alive,
 * and an index keeps its words for good (the chunk's text would stay with them). Concatenation then a slice
 * flattens into a new string of the word's length plus one.
 */
function ownString(text: string, start: number, end: number): string {
  const word = text.slice(start, end)
  return word.length < 13 ? word : (' ' + word).slice(1)
}

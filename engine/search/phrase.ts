/**
 * Phrase checks on one forward record, as milli resolves a phrase (`compute_phrase_docids`): the phrase's word pairs,
 * window by window (see `phraseConditions`), each pair anywhere in a field.
 *
 * A record is a run of field segments, each in strictly increasing position order (see inverted/forward.ts), so
 * one pass per condition settles it: at each occurrence of the right word, the closest occurrence of the left word
 * before it in the same field is the last one seen. The check costs the record's length, whatever the words'
 * frequencies (a pairwise scan cost the product of their occurrences, and frequent words made phrases and split
 * words the bulk of a query's time).
 */
import { RoaringBitmap32, type Bitmap, type InvertedIndex } from '../inverted/index.js'

/** A condition of a phrase: `right` follows `left` at `distance` (exactly one position apart when `exact`). */
export type PhraseCondition = [left: number, right: number, exact: boolean, distance: number]

/**
 * The conditions of a phrase, as milli's `compute_phrase_docids` checks them: over each window of three positions
 * (or the whole phrase when shorter), neighbours sit one position apart and the others within their distance.
 */
export function phraseConditions(words: readonly (number | null)[]): PhraseCondition[] {
  const out: PhraseCondition[] = []
  const size = Math.min(words.length, 3)
  const seen = new Set<string>()
  for (let start = 0; start + size <= words.length; start++) {
    for (let i = start; i < start + size; i++) {
      if (words[i] === null) continue
      for (let k = i + 1; k < start + size; k++) {
        if (words[k] === null) continue
        const key = `${i}:${k}`
        if (seen.has(key)) continue
        seen.add(key)
        out.push([words[i]!, words[k]!, k === i + 1, k - i])
      }
    }
  }
  return out
}

/** No occurrence of the left word yet in the current field. */
const NONE = -1

/** Whether one condition holds in `data[from .. to)`; with `byAttribute`, a field holding both words is enough. */
function conditionAt(data: Uint32Array, from: number, to: number, condition: PhraseCondition, byAttribute: boolean, allowed: Uint8Array | null): boolean {
  const [left, right, exact, distance] = condition
  let field = NONE
  let lastLeft = NONE
  let hasRight = false
  for (let k = from; k < to; k += 2) {
    const word = data[k]!
    if (word !== left && word !== right) continue
    const at = data[k + 1]!
    const fid = at >>> 16
    if (allowed !== null && allowed[fid] !== 1) continue
    if (fid !== field) { field = fid; lastLeft = NONE; hasRight = false }
    if (word === right) {
      if (byAttribute) {
        if (lastLeft !== NONE) return true
        hasRight = true
      } else if (lastLeft !== NONE && (exact ? at - lastLeft === 1 : at - lastLeft <= distance)) return true
    }
    if (word === left) {
      if (byAttribute && hasRight) return true
      lastLeft = at
    }
  }
  return false
}

/**
 * Whether a forward record (`data[from .. to)`) satisfies the phrase (see `phraseConditions`); with `allowed`, only
 * the positions in the allowed fields count.
 */
export function phraseAt(data: Uint32Array, from: number, to: number, words: readonly (number | null)[], byAttribute = false,
  conditions: readonly PhraseCondition[] = phraseConditions(words), allowed: Uint8Array | null = null): boolean {
  if (to <= from) return false
  for (const condition of conditions) if (!conditionAt(data, from, to, condition, byAttribute, allowed)) return false
  return true
}

/**
 * Phrases whose check read at least this many words of forward records keep their documents for the published
 * view: split words and quoted phrases of frequent words are checked on most of the index, and every query of them
 * asks again. Counted in words read, not documents: a thousand dictionary definitions are as many words as a
 * hundred man pages, and every query word's splits are checked (`bestSplit`), so on long documents the uncached
 * checks were a third of a search's time.
 */
const KEPT_PHRASE_WORDS = 16_384
/** Phrases kept per index view; the least recently used goes first. */
const KEPT_PHRASES = 512

const keptPhrases = new WeakMap<InvertedIndex, { version: number; phrases: Map<string, Bitmap> }>()

function phraseCache(index: InvertedIndex): Map<string, Bitmap> {
  let kept = keptPhrases.get(index)
  if (!kept || kept.version !== index.version) keptPhrases.set(index, (kept = { version: index.version, phrases: new Map() }))
  return kept.phrases
}

/**
 * Documents holding the phrase as milli resolves it (`compute_phrase_docids`): word pairs checked window by window
 * (see `phraseConditions`), each pair anywhere in a field, not necessarily all at one place. With `byAttribute`
 * proximity, a field holding both words of each pair is enough. Shared: callers must not change the bitmap.
 */
export function phraseDocids(index: InvertedIndex, words: readonly (number | null)[], byAttribute = false): Bitmap {
  const present = words.filter((w): w is number => w !== null)
  if (present.length === 0) return new RoaringBitmap32()
  const bitmaps: Bitmap[] = []
  for (const w of present) {
    const b = index.postings.get(w)
    if (!b) return new RoaringBitmap32()
    bitmaps.push(b)
  }
  bitmaps.sort((a, b) => a.size - b.size)
  let candidates = bitmaps[0]!.clone()
  for (let i = 1; i < bitmaps.length; i++) candidates = RoaringBitmap32.and(candidates, bitmaps[i]!)
  if (present.length === 1) return candidates
  const cache = phraseCache(index)
  const key = `${byAttribute ? 'a' : 'p'}${words.join(',')}`
  const cached = cache.get(key)
  if (cached) {
    cache.delete(key)
    cache.set(key, cached)
    return cached
  }
  const conditions = phraseConditions(words)
  const { data, start, end, limit } = index.forward
  const ids = candidates.toUint32Array()
  let n = 0
  let read = 0
  for (let i = 0; i < ids.length; i++) {
    const docid = ids[i]!
    if (docid >= limit) continue
    read += end[docid]! - start[docid]!
    if (phraseAt(data, start[docid]!, end[docid]!, words, byAttribute, conditions)) ids[n++] = docid
  }
  const out = new RoaringBitmap32(ids.subarray(0, n))
  // `read` counts u32s: two per word.
  if (read >= 2 * KEPT_PHRASE_WORDS) {
    if (cache.size >= KEPT_PHRASES) cache.delete(cache.keys().next().value!)
    cache.set(key, out)
  }
  return out
}

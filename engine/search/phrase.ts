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

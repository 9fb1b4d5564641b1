/**
 * The exact serde_json error of one malformed JSON value, as Meilisearch words it (`kind at line L column C`):
 * syntax errors from a walk of the value, then the two checks JSON.parse does not make (invalid UTF-8 inside a
 * string, a number beyond f64), whichever comes first. Only malformed payloads get here (see json-stream.ts).
 */
import { isUtf8 } from 'node:buffer'
import { serdeSyntaxError } from './json.js'
import type { JsonFormat } from './json-stream.js'

/** A serde_json error: `kind at line L column C`, positioned by an absolute byte offset of the file. */
export interface Failure {
  kind: string
  pos: number
}

/**
 * May hold a number that does not fit an f64 (serde_json: "number out of range"; JSON.parse: Infinity): a 3-digit
 * exponent here, a run of 309+ digits seen by the scanner.
 */
export const HUGE_EXPONENT_HINT = /[eE]\+?0*[1-9]\d\d/

/**
 * The first serde_json error in one value. `bytes` holds the value (`docLen` bytes) and, when available, the byte
 * after it (so a truncated literal such as `tru]` reads as serde reads it). Positions are relative to the value.
 * `inArray`: the value is an element of the top-level array (junk after a scalar is then "expected `,` or `]`").
 * `truncated`: the value is a prefix (for the recursion-limit check), so its EOF errors are not errors.
 */
export function docFailure(bytes: Buffer, docLen: number, inArray: boolean, truncated: boolean): Failure | null {
  const doc = bytes.subarray(0, docLen)
  let best = walkerFailure(bytes, docLen, inArray, truncated)
  const utf8 = utf8Failure(doc)
  if (utf8 !== null && (best === null || utf8 < best.pos)) best = { kind: 'invalid unicode code point', pos: utf8 }
  const huge = hugeNumberFailure(doc)
  if (huge !== null && (best === null || huge < best.pos)) best = { kind: 'number out of range', pos: huge }
  return best
}

function walkerFailure(bytes: Buffer, docLen: number, inArray: boolean, truncated: boolean): Failure | null {
  const message = serdeSyntaxError(bytes)
  if (message === null) return null
  const m = /^(.*) at line (\d+) column (\d+)$/.exec(message)
  if (!m) return null
  const kind = m[1]!
  const pos = offsetOf(bytes, Number(m[2]), Number(m[3]))
  if (kind === 'trailing characters') {
    if (pos > docLen) return null // the byte after the value
    const first = bytes[0]
    const scalar = first !== 0x7b && first !== 0x5b && first !== 0x22
    return scalar && inArray ? { kind: 'expected `,` or `]`', pos } : null
  }
  if (truncated && kind.startsWith('EOF while')) return null
  return { kind, pos }
}

/** The byte offset that serde_json's `line`/`column` designate in `bytes`. */
function offsetOf(bytes: Uint8Array, line: number, column: number): number {
  if (line === 1) return column
  let seen = 1
  for (let k = 0; k < bytes.length; k++) {
    if (bytes[k] === 0x0a && ++seen === line) return k + 1 + column
  }
  return bytes.length
}

/** serde_json checks a string's UTF-8 at its closing quote: the offset after the first such bad string. */
function utf8Failure(doc: Buffer): number | null {
  const n = doc.length
  let i = doc.indexOf(0x22)
  while (i >= 0 && i < n) {
    let j = i + 1
    let high = false
    while (j < n) {
      const c = doc[j]!
      if (c === 0x5c) {
        j += 2
        continue
      }
      if (c === 0x22) break
      if (c >= 0x80) high = true
      j++
    }
    if (j >= n) return null
    if (high && !isUtf8(doc.subarray(i + 1, j))) return j + 1
    i = doc.indexOf(0x22, j + 1)
  }
  return null
}

const JSON_NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/

/** serde_json refuses a number beyond f64 ("number out of range", positioned after the number). */
export function hugeNumberFailure(doc: Buffer): number | null {
  const n = doc.length
  let i = 0
  while (i < n) {
    const c = doc[i]!
    if (c === 0x22) {
      let j = i + 1
      while (j < n && doc[j] !== 0x22) j += doc[j] === 0x5c ? 2 : 1
      i = j + 1
      continue
    }
    if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
      let j = i + 1
      while (j < n) {
        const d = doc[j]!
        if ((d >= 0x30 && d <= 0x39) || d === 0x2e || d === 0x65 || d === 0x45 || d === 0x2b || d === 0x2d) j++
        else break
      }
      const token = doc.toString('latin1', i, j)
      if (JSON_NUMBER.test(token) && !Number.isFinite(Number(token))) return j
      i = j
      continue
    }
    i++
  }
  return null
}

function truncateMessage(message: string): string {
  // Meilisearch shortens long serde messages (meilisearch#2107): 50 first bytes, `...`, 85 last bytes.
  return message.length > 50 + 85 + 3 ? message.slice(0, 50) + '...' + message.slice(message.length - 85) : message
}

export function malformedJson(format: JsonFormat, detail: string): string {
  return `The \`${format}\` payload provided is malformed. \`Couldn't serialize document value: ${truncateMessage(detail)}\`.`
}

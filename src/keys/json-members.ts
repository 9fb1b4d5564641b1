/**
 * Where the members of a JSON object sit in its bytes, so that a field's error can carry the `line L column C`
 * serde_json would give it (tenant-token claims are read by serde in Meilisearch, and its messages reach the
 * client). Only called on text that already parsed as JSON.
 */

export interface Member {
  key: string
  /** Byte offset just after the key's closing quote. */
  keyEnd: number
  /** Byte offsets of the value: its first byte, and just after its last. */
  start: number
  end: number
}

const isSpace = (b: number) => b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09

function skipSpace(bytes: Uint8Array, i: number): number {
  while (i < bytes.length && isSpace(bytes[i]!)) i++
  return i
}

/** The offset just after the value starting at `i`. */
function skipValue(bytes: Uint8Array, i: number): number {
  const first = bytes[i]
  if (first === 0x22) return skipString(bytes, i)
  if (first === 0x7b || first === 0x5b) {
    let depth = 0
    for (let j = i; j < bytes.length; j++) {
      const b = bytes[j]!
      if (b === 0x22) { j = skipString(bytes, j) - 1; continue }
      if (b === 0x7b || b === 0x5b) depth++
      else if (b === 0x7d || b === 0x5d) { depth--; if (depth === 0) return j + 1 }
    }
    return bytes.length
  }
  let j = i
  while (j < bytes.length && !isSpace(bytes[j]!) && bytes[j] !== 0x2c && bytes[j] !== 0x7d && bytes[j] !== 0x5d) j++
  return j
}

function skipString(bytes: Uint8Array, i: number): number {
  for (let j = i + 1; j < bytes.length; j++) {
    if (bytes[j] === 0x5c) j++
    else if (bytes[j] === 0x22) return j + 1
  }
  return bytes.length
}

/** The members of the top-level object, and the offset just after its `}`; null when the text is no object. */
export function objectMembers(bytes: Uint8Array): { members: Member[]; end: number } | null {
  let i = skipSpace(bytes, 0)
  if (bytes[i] !== 0x7b) return null
  const members: Member[] = []
  i = skipSpace(bytes, i + 1)
  while (i < bytes.length && bytes[i] !== 0x7d) {
    const keyEnd = skipString(bytes, i)
    const key = JSON.parse(Buffer.from(bytes.subarray(i, keyEnd)).toString('utf8')) as string
    const start = skipSpace(bytes, skipSpace(bytes, keyEnd) + 1)
    const end = skipValue(bytes, start)
    members.push({ key, keyEnd, start, end })
    i = skipSpace(bytes, end)
    if (bytes[i] === 0x2c) i = skipSpace(bytes, i + 1)
  }
  return { members, end: i + 1 }
}

/**
 * Where serde_json reports an error that surfaced after a value was read: it then tries to close the object
 * (skipping blanks and taking the `}` if that is what comes next) before the position is taken.
 */
export function afterClosingAttempt(bytes: Uint8Array, offset: number): number {
  const i = skipSpace(bytes, offset)
  return bytes[i] === 0x7d ? i + 1 : i
}

/** serde_json's `line L column C` for a byte offset (the column counts the bytes read on that line). */
export function position(bytes: Uint8Array, offset: number): string {
  let line = 1
  let lineStart = 0
  for (let i = 0; i < offset && i < bytes.length; i++) {
    if (bytes[i] === 0x0a) { line++; lineStart = i + 1 }
  }
  return `line ${line} column ${offset - lineStart}`
}

/**
 * The byte scanner of JSON and NDJSON payloads: it finds the document boundaries of a file read block by block
 * (tracking strings, escapes and nesting depth, without recursion), checks each block's complete documents at once
 * with `JSON.parse`, and hands a malformed one to json-failures.ts for serde_json's exact error.
 */
import { isAscii, isUtf8 } from 'node:buffer'
import { docFailure, hugeNumberFailure, HUGE_EXPONENT_HINT, type Failure } from './json-failures.js'
import type { JsonFormat } from './json-stream.js'

/** serde_json refuses the 128th nested array or object ("recursion limit exceeded"). */
const RECURSION_LIMIT = 128

export const DATA_ERROR = 'data are neither an object nor a list of objects'

// Scanner states.
const START = 0 // json: before the top-level value
const ARR_FIRST = 1 // json: after `[`
const ARR_VALUE = 2 // json: after `,`
const ARR_AFTER = 3 // json: after an element
const IN_DOC = 4 // inside a value
const SINGLE_AFTER = 5 // json: after a single top-level object
const DONE = 6 // json: the top-level value is complete; what follows is never read (as serde does)
const ND_BETWEEN = 7 // ndjson: between values

// Kinds of value being scanned.
const CONTAINER = 0
const STR = 1
const SCALAR = 2

/** Bytes that end a scalar token (number, literal, or junk). */
const DELIM = new Uint8Array(256)
for (const c of [0x20, 0x0a, 0x0d, 0x09, 0x2c, 0x5d, 0x7d, 0x5b, 0x7b, 0x22, 0x3a]) DELIM[c] = 1

/** Bytes to text; latin1 decoding is much faster and equivalent when the bytes are ASCII. */
export function decode(b: Buffer, start: number, end: number): string {
  return b.toString(isAscii(b.subarray(start, end)) ? 'latin1' : 'utf8', start, end)
}

export class Scanner {
  st: number
  arrayBase = 0
  kind = CONTAINER
  depth = 0
  inStr = false
  docStart = -1
  docObj = false
  /** Absolute offset of the next byte to scan. */
  pos = 0

  // Complete values not yet checked.
  starts: number[] = []
  ends: number[] = []
  objs: boolean[] = []

  /** json: a non-object value was seen (reported once the whole top-level value is known to be well-formed). */
  dataError = false
  /** ndjson: a non-object value ends the scan (after the values before it are checked). */
  ndData = false
  /** A syntax error between values. */
  stop: Failure | null = null
  /** Absolute offset of the bracket that exceeded the recursion limit. */
  depthAt = -1
  done = false
  /** The file ended inside a value. */
  incomplete = false
  /** A run of 309+ digits outside strings was seen since the last check. */
  longDigits = false
  digitRun = 0

  documents = 0
  chunks: [number, number][] = []
  chunkStart = -1
  chunkEnd = -1

  private scratch = Buffer.allocUnsafe(0)

  constructor(readonly format: JsonFormat, readonly chunkSize: number) {
    this.st = format === 'json' ? START : ND_BETWEEN
  }

  get halted(): boolean {
    return this.done || this.ndData || this.stop !== null || this.depthAt >= 0
  }

  keepFrom(): number {
    const pending = this.starts.length > 0 ? this.starts[0]! : this.pos
    return this.st === IN_DOC ? Math.min(pending, this.docStart) : pending
  }

  run(b: Buffer, wStart: number, wLen: number): void {
    let i = this.pos - wStart
    while (i < wLen && !this.halted) {
      if (this.st === IN_DOC) {
        i = this.inDoc(b, wStart, i, wLen)
        continue
      }
      const c = b[i]!
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) {
        i++
        continue
      }
      switch (this.st) {
        case START:
          if (c === 0x5b) {
            this.st = ARR_FIRST
            this.arrayBase = 1
            i++
          } else i = this.begin(b, wStart, i)
          break
        case ARR_FIRST:
          if (c === 0x5d) {
            this.done = true
            this.st = DONE
            i++
          } else i = this.begin(b, wStart, i)
          break
        case ARR_VALUE:
          if (c === 0x5d) this.stop = { kind: 'trailing comma', pos: wStart + i + 1 }
          else i = this.begin(b, wStart, i)
          break
        case ARR_AFTER:
          if (c === 0x2c) {
            this.st = ARR_VALUE
            i++
          } else if (c === 0x5d) {
            this.done = true
            this.st = DONE
            i++
          } else this.stop = { kind: 'expected `,` or `]`', pos: wStart + i + 1 }
          break
        case SINGLE_AFTER:
          this.stop = { kind: 'trailing characters', pos: wStart + i + 1 }
          break
        default: // ND_BETWEEN
          i = this.begin(b, wStart, i)
      }
    }
    this.pos = wStart + i
  }

  /** A value starts at `b[i]`. */
  private begin(b: Buffer, wStart: number, i: number): number {
    const c = b[i]!
    if (c === 0x2c || c === 0x5d || c === 0x7d || c === 0x3a) {
      this.stop = { kind: 'expected value', pos: wStart + i + 1 }
      return i
    }
    this.docStart = wStart + i
    this.st = IN_DOC
    if (c === 0x7b) {
      this.kind = CONTAINER
      this.depth = 1
      this.inStr = false
      this.docObj = true
      return i + 1
    }
    this.docObj = false
    if (this.format === 'ndjson') {
      // serde_json refuses a non-object as soon as it sees its first byte, without reading an array's content.
      if (c === 0x5b) {
        this.ndData = true
        return i
      }
    } else this.dataError = true
    if (c === 0x5b) {
      this.kind = CONTAINER
      this.depth = 1
      this.inStr = false
      return i + 1
    }
    if (c === 0x22) {
      this.kind = STR
      return i + 1
    }
    this.kind = SCALAR
    return i
  }

  private inDoc(b: Buffer, wStart: number, i: number, n: number): number {
    if (this.kind === CONTAINER) {
      let depth = this.depth
      let inStr = this.inStr
      let run = this.digitRun
      const limit = RECURSION_LIMIT - this.arrayBase
      while (i < n) {
        if (inStr) {
          const q = b.indexOf(0x22, i)
          if (q < 0 || q >= n) {
            i = n
            break
          }
          let k = q - 1
          while (b[k] === 0x5c) k--
          i = q + 1
          if (((q - 1 - k) & 1) === 0) inStr = false
          continue
        }
        const c = b[i++]!
        if (c >= 0x30 && c <= 0x39) {
          if (++run > 308) this.longDigits = true
          continue
        }
        run = 0
        if (c === 0x22) inStr = true
        else if (c === 0x7b || c === 0x5b) {
          if (++depth >= limit) {
            this.depthAt = wStart + i - 1
            break
          }
        } else if (c === 0x7d || c === 0x5d) {
          if (--depth === 0) {
            this.depth = 0
            this.inStr = false
            this.digitRun = 0
            this.complete(wStart + i)
            return i
          }
        }
      }
      this.depth = depth
      this.inStr = inStr
      this.digitRun = run
      return i
    }
    if (this.kind === STR) {
      while (i < n) {
        const q = b.indexOf(0x22, i)
        if (q < 0 || q >= n) return n
        let k = q - 1
        while (b[k] === 0x5c) k--
        i = q + 1
        if (((q - 1 - k) & 1) === 0) {
          this.complete(wStart + i)
          return i
        }
      }
      return i
    }
    while (i < n && DELIM[b[i]!] === 0) i++
    if (i < n) this.complete(wStart + i)
    return i
  }

  private complete(end: number): void {
    this.starts.push(this.docStart)
    this.ends.push(end)
    this.objs.push(this.docObj)
    if (this.format === 'ndjson') {
      this.st = ND_BETWEEN
      if (!this.docObj) this.ndData = true
    } else if (this.arrayBase) this.st = ARR_AFTER
    else if (this.docObj) this.st = SINGLE_AFTER
    else {
      this.st = DONE
      this.done = true
    }
  }

  /** The end of the file. */
  eof(size: number): void {
    if (this.halted) return
    if (this.st === IN_DOC) {
      if (this.kind === SCALAR) this.complete(size)
      else this.incomplete = true
      return
    }
    if (this.st === START || this.st === ARR_VALUE) this.stop = { kind: 'EOF while parsing a value', pos: size }
    else if (this.st === ARR_FIRST || this.st === ARR_AFTER) this.stop = { kind: 'EOF while parsing a list', pos: size }
  }

  /** Checks the complete values found so far; the first error, or null. */
  flush(b: Buffer, wStart: number, wLen: number): Failure | null {
    const n = this.starts.length
    if (n === 0) return null
    const first = this.starts[0]! - wStart
    const last = this.ends[n - 1]! - wStart
    // A non-object fails the payload anyway: take the precise path (it also words a syntax error in it first).
    let ok = !this.objs.includes(false) && !this.longDigits && isUtf8(b.subarray(first, last))
    this.longDigits = false
    if (ok) {
      const text = this.format === 'json' ? '[' + decode(b, first, last) + ']' : this.joined(b, wStart, this.starts, this.ends)
      try {
        JSON.parse(text)
      } catch {
        ok = false
      }
      // The hint also matches text inside strings ("Mode123"): the values parsed, so only a number out of range
      // can fail them, and one scan of the window's number tokens settles it.
      if (ok && HUGE_EXPONENT_HINT.test(text) && hugeNumberFailure(b.subarray(first, last)) !== null) ok = false
    }
    if (!ok) {
      for (let k = 0; k < n; k++) {
        const s = this.starts[k]!
        const e = this.ends[k]!
        const f = docFailure(b.subarray(s - wStart, Math.min(e + 1 - wStart, wLen)), e - s, this.arrayBase === 1, false)
        if (f) return { kind: f.kind, pos: s + f.pos }
      }
    }
    for (let k = 0; k < n; k++) {
      if (!this.objs[k]) continue
      this.documents++
      if (this.chunkStart < 0) this.chunkStart = this.starts[k]!
      this.chunkEnd = this.ends[k]!
      if (this.chunkEnd - this.chunkStart >= this.chunkSize) this.cut()
    }
    this.starts.length = 0
    this.ends.length = 0
    this.objs.length = 0
    return null
  }

  cut(): void {
    if (this.chunkStart >= 0) this.chunks.push([this.chunkStart, this.chunkEnd])
    this.chunkStart = -1
  }

  /** `[doc,doc,...]` as text: ndjson values are separated by whitespace only, an array needs commas. */
  private joined(b: Buffer, wStart: number, starts: number[], ends: number[]): string {
    let total = 2
    for (let k = 0; k < starts.length; k++) total += ends[k]! - starts[k]! + 1
    if (this.scratch.length < total) this.scratch = Buffer.allocUnsafe(Math.max(total, this.scratch.length * 2))
    return joinDocs(b, wStart, starts, ends, this.scratch)
  }
}

export function joinDocs(b: Buffer, wStart: number, starts: number[], ends: number[], out: Buffer): string {
  let o = 0
  out[o++] = 0x5b
  for (let k = 0; k < starts.length; k++) {
    if (k > 0) out[o++] = 0x2c
    o += b.copy(out, o, starts[k]! - wStart, ends[k]! - wStart)
  }
  out[o++] = 0x5d
  return decode(out, 0, o)
}

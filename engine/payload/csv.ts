/**
 * CSV payloads as Meilisearch reads them (the `csv` crate's defaults, then `read_csv` in meilisearch-types): the
 * first record is the header, whose cells may be typed `name:string`, `name:number` or `name:boolean` (split on
 * the last `:`; an unknown type keeps the whole cell as a string field name). Records end at `\r`, `\n` or
 * `\r\n`; empty lines are skipped; fields may be quoted with `"` (`""` inside is a quote, a newline or delimiter
 * is content); every record must have as many fields as the header. Empty string fields, and empty or blank
 * number/boolean fields, are null; numbers parse as Rust does (`i64`, else `f64`; infinities and NaN are null),
 * booleans are exactly `true`/`false` once trimmed.
 */
import { isUtf8 } from 'node:buffer'
import { FileWindow, lineColumnAt, type PayloadInput } from './window.js'
import { rustDebugString, rustTrim } from '../util/rust-text.js'

export type CsvType = 'string' | 'number' | 'boolean'

export interface CsvHeader {
  names: string[]
  types: CsvType[]
}

export type CsvValidation =
  | { ok: true; documents: number; chunks: [number, number][]; csvHeader: CsvHeader }
  | { ok: false; message: string }

const QUOTE = 0x22
const CR = 0x0d
const LF = 0x0a

// States.
const S_RECORD = 0 // before a record (terminators are skipped: empty lines)
const S_FIELD = 1 // at the start of a field
const S_UNQUOTED = 2 // in an unquoted field (or after a quoted part)
const S_QUOTED = 3 // inside quotes
const S_QUOTE_SEEN = 4 // a quote inside quotes: a closing quote or the first half of `""`

// How a field's content is laid out in its raw bytes.
const PLAIN = 0
const QUOTED = 1 // `"..."`, no `""` inside, nothing after the closing quote
const COMPLEX = 2 // needs unescaping

export function parseCsvHeaderCell(cell: string): { name: string; type: CsvType } {
  const colon = cell.lastIndexOf(':')
  if (colon >= 0) {
    const type = cell.slice(colon + 1)
    if (type === 'string' || type === 'number' || type === 'boolean') return { name: cell.slice(0, colon), type }
  }
  return { name: cell, type: 'string' }
}

const RUST_INT = /^[+-]?\d+$/
const RUST_FLOAT = /^[+-]?(?:(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?|inf|infinity|nan)$/i

/** A number cell as Meilisearch types it: the number, null (empty, infinite or NaN), or undefined if invalid. */
export function csvNumber(raw: string): number | null | undefined {
  const t = rustTrim(raw)
  if (t === '') return null
  if (RUST_INT.test(t)) return Number(t)
  if (!RUST_FLOAT.test(t)) return undefined
  const v = parseFloat(t)
  return Number.isFinite(v) ? v : null
}

export function csvBoolean(raw: string): boolean | null | undefined {
  const t = rustTrim(raw)
  if (t === '') return null
  return t === 'true' ? true : t === 'false' ? false : undefined
}

/** Index of the first byte that is not valid UTF-8 (Rust's `valid_up_to`). */
function validUpTo(b: Uint8Array): number {
  let i = 0
  const n = b.length
  while (i < n) {
    const c = b[i]!
    if (c < 0x80) {
      i++
      continue
    }
    let len: number
    let min: number
    if (c >= 0xc2 && c <= 0xdf) (len = 2), (min = 0x80)
    else if (c >= 0xe0 && c <= 0xef) (len = 3), (min = 0x800)
    else if (c >= 0xf0 && c <= 0xf4) (len = 4), (min = 0x10000)
    else return i
    if (i + len > n) return i
    let cp = c & (0xff >> (len + 1))
    for (let k = 1; k < len; k++) {
      const d = b[i + k]!
      if ((d & 0xc0) !== 0x80) return i
      cp = (cp << 6) | (d & 0x3f)
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return i
    i += len
  }
  return n
}

/** A failure as the `csv` payload message words it (inside ``The `csv` payload provided is malformed: `…`.``). */
type CsvFailure =
  | { type: 'lengths'; record: number; pos: number; len: number; expected: number }
  | { type: 'utf8'; record: number; pos: number; field: number; validUpTo: number }
  | { type: 'number' | 'boolean'; line: number; value: string }

class CsvScanner {
  st = S_RECORD
  pos = 0
  /** Reader position (csv `Position`) where the current record's read began: after the previous record. */
  recPos = 0
  recStart = -1
  record = 0
  fieldStart = 0
  mode = PLAIN
  fStart: number[] = []
  fEnd: number[] = []
  fMode: number[] = []
  header: CsvHeader | null
  failure: CsvFailure | null = null
  documents = 0
  out: Record<string, unknown>[] | null
  chunks: [number, number][] = []
  chunkStart = -1
  chunkEnd = -1

  constructor(readonly delimiter: number, readonly chunkSize: number, header: CsvHeader | null, parse: boolean) {
    this.header = header
    this.out = parse ? [] : null
    if (header) this.record = 1
  }

  keepFrom(): number {
    return this.st === S_RECORD ? this.pos : this.recStart
  }

  run(b: Buffer, wStart: number, n: number): void {
    const delim = this.delimiter
    let i = this.pos - wStart
    while (i < n && this.failure === null) {
      switch (this.st) {
        case S_RECORD: {
          const c = b[i]!
          if (c === CR || c === LF) {
            i++
            break
          }
          this.recStart = wStart + i
          this.st = S_FIELD
          break
        }
        case S_FIELD: {
          const c = b[i]!
          this.fieldStart = wStart + i
          if (c === QUOTE) {
            this.mode = QUOTED
            this.st = S_QUOTED
            i++
          } else if (c === delim) {
            this.field(wStart + i, PLAIN)
            i++
          } else if (c === CR || c === LF) {
            this.field(wStart + i, PLAIN)
            i++
            this.endRecord(b, wStart, wStart + i)
          } else {
            this.mode = PLAIN
            this.st = S_UNQUOTED
          }
          break
        }
        case S_UNQUOTED: {
          while (i < n) {
            const c = b[i]!
            if (c === delim || c === CR || c === LF) break
            i++
          }
          if (i < n) {
            const c = b[i]!
            this.field(wStart + i, this.mode)
            i++
            if (c === delim) this.st = S_FIELD
            else this.endRecord(b, wStart, wStart + i)
          }
          break
        }
        case S_QUOTED: {
          const q = b.indexOf(QUOTE, i)
          if (q < 0 || q >= n) i = n
          else {
            i = q + 1
            this.st = S_QUOTE_SEEN
          }
          break
        }
        default: {
          // S_QUOTE_SEEN
          const c = b[i]!
          if (c === QUOTE) {
            this.mode = COMPLEX
            this.st = S_QUOTED
            i++
          } else if (c === delim) {
            this.field(wStart + i, this.mode)
            i++
            this.st = S_FIELD
          } else if (c === CR || c === LF) {
            this.field(wStart + i, this.mode)
            i++
            this.endRecord(b, wStart, wStart + i)
          } else {
            this.mode = COMPLEX
            this.st = S_UNQUOTED
          }
        }
      }
    }
    this.pos = wStart + i
  }

  eof(b: Buffer, wStart: number, size: number): void {
    if (this.failure !== null || this.st === S_RECORD) return
    if (this.st === S_QUOTED) this.mode = COMPLEX // an unclosed quote runs to the end
    this.field(size, this.st === S_FIELD ? PLAIN : this.mode)
    this.endRecord(b, wStart, size)
  }

  private field(end: number, mode: number): void {
    this.fStart.push(this.fieldStart)
    this.fEnd.push(end)
    this.fMode.push(mode)
    this.st = S_FIELD
  }

  private fieldBytes(b: Buffer, wStart: number, k: number): Buffer {
    const s = this.fStart[k]! - wStart
    const e = this.fEnd[k]! - wStart
    const mode = this.fMode[k]!
    if (mode === PLAIN) return b.subarray(s, e)
    if (mode === QUOTED) return b.subarray(s + 1, e - 1)
    const out = Buffer.allocUnsafe(e - s)
    let o = 0
    let inQuotes = true
    for (let j = s + 1; j < e; j++) {
      const c = b[j]!
      if (inQuotes && c === QUOTE) {
        if (j + 1 < e && b[j + 1] === QUOTE) {
          out[o++] = QUOTE
          j++
        } else inQuotes = false
      } else out[o++] = c
    }
    return out.subarray(0, o)
  }

  private fieldString(b: Buffer, wStart: number, k: number): string {
    const mode = this.fMode[k]!
    if (mode === PLAIN) return b.toString('utf8', this.fStart[k]! - wStart, this.fEnd[k]! - wStart)
    if (mode === QUOTED) return b.toString('utf8', this.fStart[k]! - wStart + 1, this.fEnd[k]! - wStart - 1)
    return this.fieldBytes(b, wStart, k).toString('utf8')
  }

  private endRecord(b: Buffer, wStart: number, consumed: number): void {
    const count = this.fStart.length
    const recPos = this.recPos
    const record = this.record
    this.st = S_RECORD
    this.recPos = consumed
    this.record++
    try {
      // The raw bytes decide UTF-8 validity unless a quote hides or joins something: then check field by field.
      if (this.header === null) {
        if (!isUtf8(b.subarray(this.recStart - wStart, consumed - wStart)) && this.utf8Check(b, wStart, record, recPos)) return
        const names: string[] = []
        const types: CsvType[] = []
        for (let k = 0; k < count; k++) {
          const { name, type } = parseCsvHeaderCell(this.fieldString(b, wStart, k))
          names.push(name)
          types.push(type)
        }
        this.header = { names, types }
        return
      }
      const { names, types } = this.header
      if (count !== names.length) {
        this.failure = { type: 'lengths', record, pos: recPos, len: count, expected: names.length }
        return
      }
      if (!isUtf8(b.subarray(this.recStart - wStart, consumed - wStart)) && this.utf8Check(b, wStart, record, recPos)) return
      const line = record // Meilisearch counts data records from 1
      let doc: Record<string, unknown> | null = null
      if (this.out) doc = {}
      for (let k = 0; k < count; k++) {
        const type = types[k]!
        let value: unknown
        if (type === 'string') {
          if (!doc) continue
          const s = this.fieldString(b, wStart, k)
          value = s === '' ? null : s
        } else {
          const raw = this.fieldString(b, wStart, k)
          value = type === 'number' ? csvNumber(raw) : csvBoolean(raw)
          if (value === undefined) {
            this.failure = { type, line, value: raw }
            return
          }
        }
        if (doc) {
          const name = names[k]!
          if (name === '__proto__') Object.defineProperty(doc, name, { value, writable: true, enumerable: true, configurable: true })
          else doc[name] = value
        }
      }
      if (doc) this.out!.push(doc)
      this.documents++
      if (this.chunkStart < 0) this.chunkStart = recPos
      this.chunkEnd = consumed
      if (this.chunkEnd - this.chunkStart >= this.chunkSize) this.cut()
    } finally {
      this.fStart.length = 0
      this.fEnd.length = 0
      this.fMode.length = 0
    }
  }

  /** True (and `failure` set) when a field of the record is not UTF-8 once unquoted. */
  private utf8Check(b: Buffer, wStart: number, record: number, pos: number): boolean {
    for (let k = 0; k < this.fStart.length; k++) {
      const bytes = this.fieldBytes(b, wStart, k)
      if (!isUtf8(bytes)) {
        this.failure = { type: 'utf8', record, pos, field: k, validUpTo: validUpTo(bytes) }
        return true
      }
    }
    return false
  }

  cut(): void {
    if (this.chunkStart >= 0) this.chunks.push([this.chunkStart, this.chunkEnd])
    this.chunkStart = -1
  }
}

function describe(f: CsvFailure, line: number): string {
  switch (f.type) {
    case 'lengths':
      return `CSV error: record ${f.record} (line: ${line}, byte: ${f.pos}): found record with ${f.len} fields, but the previous record has ${f.expected} fields`
    case 'utf8':
      return `CSV parse error: record ${f.record} (line ${line}, field: ${f.field}, byte: ${f.pos}): invalid utf-8: invalid UTF-8 in field ${f.field} near byte index ${f.validUpTo}`
    case 'number':
      return `Error parsing number ${rustDebugString(f.value)} at line ${f.line}: invalid float literal`
    default:
      return `Error parsing boolean ${rustDebugString(f.value)} at line ${f.line}: provided string was not \`true\` or \`false\``
  }
}

export const malformedCsv = (detail: string): string => `The \`csv\` payload provided is malformed: \`${detail}\`.`

const delimiterByte = (delimiter: string): number => (delimiter === '' ? 0x2c : delimiter.charCodeAt(0) & 0xff)

export async function validateCsvFile(input: PayloadInput, delimiter: string, chunkSize: number, blockSize?: number): Promise<CsvValidation> {
  const win = await FileWindow.open(input, blockSize)
  try {
    const sc = new CsvScanner(delimiterByte(delimiter), chunkSize, null, false)
    let first = true
    while (sc.failure === null) {
      const more = await win.next(sc.keepFrom())
      if (more) {
        if (first && win.len >= 3 && win.buf[0] === 0xef && win.buf[1] === 0xbb && win.buf[2] === 0xbf) sc.pos = 3 // UTF-8 BOM
        first = false
        sc.run(win.buf, win.start, win.len)
      }
      if (win.eof) {
        sc.eof(win.buf, win.start, win.size)
        break
      }
    }
    const f = sc.failure as CsvFailure | null
    if (f) {
      const line = f.type === 'lengths' || f.type === 'utf8' ? (await lineColumnAt(win.fh, f.pos)).line : 0
      return { ok: false, message: malformedCsv(describe(f, line)) }
    }
    sc.cut()
    return { ok: true, documents: sc.documents, chunks: sc.chunks, csvHeader: sc.header ?? { names: [], types: [] } }
  } finally {
    await win.close()
  }
}

/** The documents of a chunk (whole records after the header) that `validateCsvFile` reported. */
export function parseCsvChunk(bytes: Buffer, delimiter: string, header: CsvHeader): Record<string, unknown>[] {
  const sc = new CsvScanner(delimiterByte(delimiter), Number.MAX_SAFE_INTEGER, header, true)
  sc.run(bytes, 0, bytes.length)
  sc.eof(bytes, 0, bytes.length)
  const f = sc.failure as CsvFailure | null
  if (f) throw new Error(malformedCsv(describe(f, 0)))
  return sc.out!
}

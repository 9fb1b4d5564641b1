/**
 * Streaming validation of `json` (an array of objects, or one object) and `ndjson` (a stream of objects separated
 * by whitespace) payload files, with Meilisearch's (serde_json's) error messages and positions.
 *
 * A byte scanner finds the document boundaries (tracking strings, escapes and nesting depth, no recursion), then
 * each block's complete documents are checked at once with `JSON.parse` (plus a UTF-8 check). Only when that check
 * fails are the documents of the block walked one by one to word the exact serde_json error: the first error in
 * the payload, with a line and column counted over the whole file.
 */
import { docFailure, malformedJson, type Failure } from './json-failures.js'
import { DATA_ERROR, Scanner, decode, joinDocs } from './json-scanner.js'
import { FileWindow, lineColumnAt, type PayloadInput } from './window.js'

export type JsonFormat = 'json' | 'ndjson'

export type JsonValidation = { ok: true; documents: number; chunks: [number, number][] } | { ok: false; message: string }

export async function validateJsonFile(input: PayloadInput, format: JsonFormat, chunkSize: number, blockSize?: number): Promise<JsonValidation> {
  const win = await FileWindow.open(input, blockSize)
  try {
    const sc = new Scanner(format, chunkSize)
    const fail = async (f: Failure): Promise<JsonValidation> => {
      const { line, column } = await lineColumnAt(win.fh, f.pos)
      return { ok: false, message: malformedJson(format, `${f.kind} at line ${line} column ${column}`) }
    }
    while (true) {
      const more = await win.next(sc.keepFrom())
      if (more) sc.run(win.buf, win.start, win.len)
      if (win.eof && !sc.halted) sc.eof(win.size)
      const f = sc.flush(win.buf, win.start, win.len)
      if (f) return await fail(f)
      if (sc.halted || win.eof) break
    }
    if (sc.depthAt >= 0) {
      // An error before the too-deep bracket comes first.
      const s = sc.docStart - win.start
      const f = docFailure(win.buf.subarray(s, sc.depthAt - win.start), sc.depthAt - sc.docStart, sc.arrayBase === 1, true)
      return await fail(f ? { kind: f.kind, pos: sc.docStart + f.pos } : { kind: 'recursion limit exceeded', pos: sc.depthAt + 1 })
    }
    if (sc.stop) return await fail(sc.stop)
    if (sc.incomplete) {
      const s = sc.docStart - win.start
      const f = docFailure(win.buf.subarray(s, win.len), win.len - s, sc.arrayBase === 1, false)
      return await fail(f ? { kind: f.kind, pos: sc.docStart + f.pos } : { kind: 'EOF while parsing a value', pos: win.size })
    }
    if (sc.dataError || sc.ndData) return { ok: false, message: malformedJson(format, DATA_ERROR) }
    sc.cut()
    return { ok: true, documents: sc.documents, chunks: sc.chunks }
  } finally {
    await win.close()
  }
}

/**
 * The documents of an NDJSON chunk holding one per line, or null. A newline can only be whitespace between tokens,
 * and a comma in its place inside a value is always a syntax error (after `{`, `[`, `:` or `,`, before `}` or `]`,
 * or between two values of a container, which need a comma already), so when the lines joined with commas parse,
 * each line is one document.
 */
export function parseNdjsonLines(bytes: Buffer): unknown[] | null {
  const text = decode(bytes, 0, bytes.length).trimEnd()
  if (text === '') return []
  try {
    return JSON.parse('[' + text.replaceAll('\n', ',') + ']') as unknown[]
  } catch {
    return null
  }
}

/** The documents of a chunk that `validateJsonFile` reported (whole values, already checked). */
export function parseJsonChunk(bytes: Buffer, format: JsonFormat): unknown[] {
  if (bytes.length === 0) return []
  if (format === 'json') return JSON.parse('[' + decode(bytes, 0, bytes.length) + ']') as unknown[]
  // ndjson, usually one object per line (see parseNdjsonLines).
  const lines = parseNdjsonLines(bytes)
  if (lines) return lines
  // Blank lines, values spanning lines or sharing one: find the values and join them with commas.
  const starts: number[] = []
  const ends: number[] = []
  const n = bytes.length
  let i = 0
  while (i < n) {
    const c = bytes[i]!
    if (c !== 0x7b) {
      i++
      continue
    }
    starts.push(i)
    let depth = 0
    let inStr = false
    while (i < n) {
      if (inStr) {
        const q = bytes.indexOf(0x22, i)
        if (q < 0) {
          i = n
          break
        }
        let k = q - 1
        while (bytes[k] === 0x5c) k--
        i = q + 1
        if (((q - 1 - k) & 1) === 0) inStr = false
        continue
      }
      const d = bytes[i++]!
      if (d === 0x22) inStr = true
      else if (d === 0x7b || d === 0x5b) depth++
      else if ((d === 0x7d || d === 0x5d) && --depth === 0) break
    }
    ends.push(i)
  }
  let total = 2
  for (let k = 0; k < starts.length; k++) total += ends[k]! - starts[k]! + 1
  return JSON.parse(joinDocs(bytes, 0, starts, ends, Buffer.allocUnsafe(total))) as unknown[]
}

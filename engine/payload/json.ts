/**
 * JSON request bodies: parsing with errors worded as Meilisearch's (serde_json's) are, so a client sees
 * `EOF while parsing an object at line 1 column 22` rather than V8's phrasing. Runs on the main thread for small
 * bodies and in the worker pool for large ones (the `parseJson` job).
 */

export type JsonParse = { ok: true; value: unknown } | { ok: false; empty: boolean; message: string }

export function parseJsonText(text: string): JsonParse {
  if (text.trim() === '') return { ok: false, empty: true, message: '' }
  try {
    const value = JSON.parse(text)
    // serde_json refuses the 128th nested array or object; so do we (deep values would also overflow the stack of
    // everything that walks them later).
    const tooDeep = recursionLimitAt(text)
    if (tooDeep !== null) return { ok: false, empty: false, message: tooDeep }
    return { ok: true, value }
  } catch (err) {
    return { ok: false, empty: false, message: serdeSyntaxError(Buffer.from(text, 'utf8')) ?? describeSyntaxError(text, (err as Error).message) }
  }
}

export function parseJsonBytes(bytes: Uint8Array): JsonParse {
  return parseJsonText(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8'))
}

const RECURSION_LIMIT = 128

/** `recursion limit exceeded at line L column C` when some value nests 128 arrays/objects deep, else null. */
function recursionLimitAt(text: string): string | null {
  let depth = 0
  let inString = false
  let line = 1
  let lineStart = 0
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (inString) {
      if (c === 0x5c) i++
      else if (c === 0x22) inString = false
      continue
    }
    if (c === 0x22) inString = true
    else if (c === 0x0a) { line++; lineStart = i + 1 }
    else if (c === 0x5b || c === 0x7b) {
      if (++depth >= RECURSION_LIMIT) return `recursion limit exceeded at line ${line} column ${Buffer.byteLength(text.slice(lineStart, i + 1))}`
    } else if (c === 0x5d || c === 0x7d) depth--
  }
  return null
}

const EOF_VALUE = 'EOF while parsing a value'
const EOF_OBJECT = 'EOF while parsing an object'
const EOF_LIST = 'EOF while parsing a list'
const EOF_STRING = 'EOF while parsing a string'

/** JSON's insignificant whitespace (RFC 8259 §2): space, line feed, carriage return, tab. */
export const isWs = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09
const isDigit = (c: number) => c >= 0x30 && c <= 0x39
const isHex = (c: number) => isDigit(c) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66)

/**
 * The first syntax error of `b` as serde_json reports it (`<kind> at line L column C`), found by walking the bytes
 * with serde_json's grammar and checks (iteratively, so deep nesting cannot overflow the stack). serde's position
 * is a byte offset `p` (one past the offending byte, or the end of input for EOF errors): line = 1 + newlines
 * before `p`, column = bytes between the last newline before `p` and `p`. Null when no error is found.
 */
export function serdeSyntaxError(b: Uint8Array): string | null {
  const n = b.length
  let i = 0
  const at = (kind: string, p: number): string => {
    let line = 1
    let lineStart = 0
    for (let k = 0; k < p; k++) if (b[k] === 0x0a) { line++; lineStart = k + 1 }
    return `${kind} at line ${line} column ${p - lineStart}`
  }
  const skip = () => { while (i < n && isWs(b[i]!)) i++ }
  // A string starting at b[i] === '"'.
  const string = (): string | null => {
    i++
    while (true) {
      if (i >= n) return at(EOF_STRING, n)
      const c = b[i]!
      if (c === 0x22) { i++; return null }
      if (c === 0x5c) {
        i++
        if (i >= n) return at(EOF_STRING, n)
        const e = b[i++]!
        if (e === 0x75) {
          if (n - i < 4) return at(EOF_STRING, n)
          const ok = isHex(b[i]!) && isHex(b[i + 1]!) && isHex(b[i + 2]!) && isHex(b[i + 3]!)
          i += 4
          if (!ok) return at('invalid escape', i)
        } else if (!'"\\/bfnrt'.includes(String.fromCharCode(e))) return at('invalid escape', i)
        continue
      }
      if (c < 0x20) return at('control character (\\u0000-\\u001F) found while parsing a string', i + 1)
      i++
    }
  }
  const colon = (): string | null => {
    skip()
    if (i >= n) return at(EOF_OBJECT, n)
    if (b[i] !== 0x3a) return at('expected `:`', i + 1)
    i++
    return null
  }
  const ident = (rest: string): string | null => {
    i++
    for (let k = 0; k < rest.length; k++) {
      if (i >= n) return at(EOF_VALUE, n)
      if (b[i++] !== rest.charCodeAt(k)) return at('expected ident', i)
    }
    return null
  }
  const number = (): string | null => {
    if (b[i] === 0x2d) {
      i++
      if (i >= n) return at('invalid number', n)
      if (!isDigit(b[i]!)) return at('invalid number', ++i)
    }
    if (b[i] === 0x30) {
      i++
      if (i < n && isDigit(b[i]!)) return at('invalid number', i + 1)
    } else while (i < n && isDigit(b[i]!)) i++
    if (b[i] === 0x2e) {
      i++
      if (i >= n) return at(EOF_VALUE, n)
      if (!isDigit(b[i]!)) return at('invalid number', i + 1)
      while (i < n && isDigit(b[i]!)) i++
    }
    if (b[i] === 0x65 || b[i] === 0x45) {
      i++
      if (b[i] === 0x2b || b[i] === 0x2d) i++
      if (i >= n) return at(EOF_VALUE, n)
      if (!isDigit(b[i++]!)) return at('invalid number', i)
      while (i < n && isDigit(b[i]!)) i++
    }
    return null
  }
  const stack: number[] = [] // 0x7b for an object, 0x5b for a list
  let r: string | null
  value: while (true) {
    skip()
    if (i >= n) return at(EOF_VALUE, n)
    const c = b[i]!
    if (c === 0x7b) {
      i++
      skip()
      if (i >= n) return at(EOF_OBJECT, n)
      if (b[i] === 0x7d) i++
      else {
        if (b[i] !== 0x22) return at('key must be a string', i + 1)
        if ((r = string() ?? colon())) return r
        stack.push(0x7b)
        continue value
      }
    } else if (c === 0x5b) {
      i++
      skip()
      if (i >= n) return at(EOF_LIST, n)
      if (b[i] === 0x5d) i++
      else { stack.push(0x5b); continue value }
    } else if (c === 0x22) { if ((r = string())) return r }
    else if (c === 0x74) { if ((r = ident('rue'))) return r }
    else if (c === 0x66) { if ((r = ident('alse'))) return r }
    else if (c === 0x6e) { if ((r = ident('ull'))) return r }
    else if (c === 0x2d || isDigit(c)) { if ((r = number())) return r }
    else return at('expected value', i + 1)
    // A value is complete: close containers or go on to the next element.
    while (true) {
      skip()
      const top = stack[stack.length - 1]
      if (top === undefined) return i < n ? at('trailing characters', i + 1) : null
      if (i >= n) return at(top === 0x7b ? EOF_OBJECT : EOF_LIST, n)
      const d = b[i]!
      if (d === top + 2) { i++; stack.pop(); continue } // `}` is `{` + 2, `]` is `[` + 2
      if (d !== 0x2c) return at(top === 0x7b ? 'expected `,` or `}`' : 'expected `,` or `]`', i + 1)
      i++
      skip()
      if (i >= n) return at(EOF_VALUE, n)
      if (b[i] === top + 2) return at('trailing comma', i + 1)
      if (top === 0x7b) {
        if (b[i] !== 0x22) return at('key must be a string', i + 1)
        if ((r = string() ?? colon())) return r
      }
      continue value
    }
  }
}

function lineColumn(text: string, position: number): { line: number; column: number } {
  let line = 1
  let lineStart = 0
  for (let i = 0; i < position && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) { line++; lineStart = i + 1 }
  }
  return { line, column: position - lineStart + 1 }
}

/** What is open at the end of the text: a string, an object, a list, or nothing. */
function openContext(text: string): string {
  const stack: string[] = []
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const c = text[i]
    if (inString) {
      if (c === '\\') i++
      else if (c === '"') inString = false
    } else if (c === '"') inString = true
    else if (c === '{' || c === '[') stack.push(c)
    else if (c === '}' || c === ']') stack.pop()
  }
  if (inString) return 'a string'
  const top = stack[stack.length - 1]
  return top === '{' ? 'an object' : top === '[' ? 'a list' : 'a value'
}

const V8_TO_SERDE: [RegExp, string][] = [
  [/non-whitespace character after JSON/, 'trailing characters'],
  [/Expected property name or '}'/, 'key must be a string'],
  [/Expected ':' after property name/, 'expected `:`'],
  [/Expected ',' or '}' after property value/, 'expected `,` or `}`'],
  [/Expected ',' or '\]' after array element/, 'expected `,` or `]`'],
  [/Bad control character in string literal/, 'control character (\\u0000-\\u001F) found while parsing a string'],
  [/Bad escaped character|Bad Unicode escape/, 'invalid escape'],
]

function describeSyntaxError(text: string, v8: string): string {
  const pos = /at position (\d+)/.exec(v8)
  const trimmed = text.replace(/\s+$/, '')
  if (!pos || Number(pos[1]) >= trimmed.length || /Unexpected end of JSON input|Unterminated string/.test(v8)) {
    // serde reports the end of the input: the last line's full length.
    const { line, column } = lineColumn(text, text.length)
    const last = trimmed[trimmed.length - 1]
    const context = last === ':' || last === ',' ? 'a value' : openContext(trimmed)
    return `EOF while parsing ${context} at line ${line} column ${column - 1}`
  }
  const position = Number(pos[1])
  const { line, column } = lineColumn(text, position)
  const kind = V8_TO_SERDE.find(([re]) => re.test(v8))?.[1] ?? 'expected value'
  return `${kind} at line ${line} column ${column}`
}

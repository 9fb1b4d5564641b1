/**
 * JSON request bodies: parsing with errors worded as Meilisearch's (serde_json's) are, so a client sees
 * `EOF while parsing an object at line 1 column 22` rather than V8's phrasing. Runs on the main thread for small
 * bodies and in the worker pool for large ones (the `parseJson` job).
 */

export type JsonParse = { ok: true; value: unknown } | { ok: false; empty: boolean; message: string }

export function parseJsonText(text: string): JsonParse {
  if (text.trim() === '') return { ok: false, empty: true, message: '' }
  try {
    return { ok: true, value: JSON.parse(text) }
  } catch (err) {
    return { ok: false, empty: false, message: describeSyntaxError(text, (err as Error).message) }
  }
}

export function parseJsonBytes(bytes: Uint8Array): JsonParse {
  return parseJsonText(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8'))
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

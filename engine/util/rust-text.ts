/**
 * Rust's text semantics where Meilisearch's answers depend on them: whitespace (`char::is_whitespace`, the Unicode
 * White_Space property; unlike JS, U+FEFF is not whitespace), `str::trim`, and `{:?}` of a string in messages.
 */
const RUST_WS = '\\t\\n\\v\\f\\r \\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000'
const RUST_TRIM = new RegExp(`^[${RUST_WS}]+|[${RUST_WS}]+$`, 'gu')
const ENDS_WITH_WS = new RegExp(`[${RUST_WS}]$`, 'u')
/** Rust's `str::trim` (Unicode White_Space; unlike JS it keeps U+FEFF). */
export function rustTrim(s: string): string {
  return s.replace(RUST_TRIM, '')
}

/** Whether the text ends with Rust whitespace. */
export function endsWithWhitespace(s: string): boolean {
  return ENDS_WITH_WS.test(s)
}

/** Rust's `{:?}` of a string (what Meilisearch's messages quote a value with). */
export function rustDebugString(s: string): string {
  let out = '"'
  for (const ch of s) {
    const cp = ch.codePointAt(0)!
    if (ch === '"') out += '\\"'
    else if (ch === '\\') out += '\\\\'
    else if (ch === '\n') out += '\\n'
    else if (ch === '\r') out += '\\r'
    else if (ch === '\t') out += '\\t'
    else if (cp === 0) out += '\\0'
    else if (cp < 0x20 || (cp >= 0x7f && cp <= 0x9f) || cp === 0xad || (cp >= 0x200b && cp <= 0x200f) || cp === 0x2028 || cp === 0x2029 || (cp >= 0x2060 && cp <= 0x2064) || cp === 0xfeff)
      out += `\\u{${cp.toString(16)}}`
    else out += ch
  }
  return out + '"'
}

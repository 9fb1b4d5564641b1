/** Rust's notion of whitespace (`char::is_whitespace`), where Meilisearch's query handling trims or tests it. */
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

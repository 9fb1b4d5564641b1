/** Rust-style escapes in filter values. */
/**
 * The `unescaper` crate, which Meilisearch applies to every value: `\b \f \n \r \t \' \" \\`, `\u{X..}` and
 * `\uXXXX` (up to 0xFFFF), `\xHH`, octal `\o`, `\oo`, `\ooo` (up to 0o377). Anything else after a backslash is
 * invalid (`malformed`); bad hexadecimal numbers are `number` errors.
 */
export function unescapeRust(s: string): { ok: true; value: string } | { ok: false; error: 'malformed' | 'number' } {
  if (!s.includes('\\')) return { ok: true, value: s }
  const chars = [...s]
  let out = ''
  let i = 0
  const isHex = (c: string | undefined) => c !== undefined && /^[0-9a-fA-F]$/.test(c)
  const isOct = (c: string | undefined) => c !== undefined && /^[0-7]$/.test(c)
  while (i < chars.length) {
    const c = chars[i++]!
    if (c !== '\\') { out += c; continue }
    const e = chars[i++]
    if (e === undefined) return { ok: false, error: 'malformed' }
    switch (e) {
      case 'b': out += '\b'; break
      case 'f': out += '\f'; break
      case 'n': out += '\n'; break
      case 'r': out += '\r'; break
      case 't': out += '\t'; break
      case "'": out += "'"; break
      case '"': out += '"'; break
      case '\\': out += '\\'; break
      case 'u': {
        const first = chars[i++]
        if (first === undefined) return { ok: false, error: 'malformed' }
        let hex = ''
        if (first === '{') {
          while (i < chars.length && chars[i] !== '}') hex += chars[i++]
          i++ // the closing brace (or the end)
        } else {
          if (!isHex(first)) return { ok: false, error: 'malformed' }
          hex = first
          for (let k = 0; k < 3; k++) {
            const h = chars[i++]
            if (h === undefined || !isHex(h)) return { ok: false, error: 'malformed' }
            hex += h
          }
        }
        // u16::from_str_radix: hexadecimal digits only, at most 0xFFFF.
        if (!/^\+?[0-9a-fA-F]+$/.test(hex) || parseInt(hex, 16) > 0xffff) return { ok: false, error: 'number' }
        const code = parseInt(hex, 16)
        if (code >= 0xd800 && code <= 0xdfff) return { ok: false, error: 'malformed' }
        out += String.fromCharCode(code)
        break
      }
      case 'x': {
        const h1 = chars[i++]
        const h2 = chars[i++]
        if (!isHex(h1) || !isHex(h2)) return { ok: false, error: 'malformed' }
        out += String.fromCharCode(parseInt(h1! + h2!, 16))
        break
      }
      default: {
        if (!isOct(e)) return { ok: false, error: 'malformed' }
        let oct = e
        const more = e <= '3' ? 2 : 1
        for (let k = 0; k < more && isOct(chars[i]); k++) oct += chars[i++]
        out += String.fromCharCode(parseInt(oct, 8))
      }
    }
  }
  return { ok: true, value: out }
}

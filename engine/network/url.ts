/**
 * Remote URLs are checked as Meilisearch checks them, with Rust's `url` crate (`Url::parse`), and a refusal words
 * the reason as that crate's `ParseError` does ("relative URL without a base", "empty host", ...). Node's WHATWG
 * parser accepts and refuses the same inputs (both follow the URL standard) but only says "Invalid URL", so the
 * reason is recovered here from the input's shape.
 */

const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:/
const SPECIAL = new Set(['http', 'https', 'ws', 'wss', 'ftp', 'file'])

/** The reason `url::Url::parse` refuses `text`, or `null` when it parses. */
export function urlParseError(text: string): string | null {
  // The URL standard trims C0 controls and spaces around the input before parsing.
  const input = text.replace(/^[\u0000-\u0020]+|[\u0000-\u0020]+$/g, '')
  if (!SCHEME.test(input)) return 'relative URL without a base'
  try {
    new URL(input)
    return null
  } catch {
    return reason(input)
  }
}

function reason(input: string): string {
  const scheme = input.slice(0, input.indexOf(':')).toLowerCase()
  if (!SPECIAL.has(scheme)) return 'relative URL without a base'
  const rest = input.slice(scheme.length + 1).replace(/^[/\\]*/, '')
  const authority = rest.split(/[/\\?#]/, 1)[0]!
  const hostAndPort = authority.slice(authority.lastIndexOf('@') + 1)
  if (hostAndPort.startsWith('[')) {
    const close = hostAndPort.indexOf(']')
    if (close === -1) return 'invalid IPv6 address'
    const port = hostAndPort.slice(close + 1)
    return port === '' || /^:\d{0,5}$/.test(port) ? 'invalid IPv6 address' : 'invalid port number'
  }
  const colon = hostAndPort.lastIndexOf(':')
  const host = colon === -1 ? hostAndPort : hostAndPort.slice(0, colon)
  const port = colon === -1 ? '' : hostAndPort.slice(colon + 1)
  if (host === '') return 'empty host'
  if (port !== '' && (!/^\d+$/.test(port) || Number(port) > 65535)) return 'invalid port number'
  if (/^[0-9.]+$/.test(host) || /^0x/i.test(host)) return 'invalid IPv4 address'
  if (/[\u0000\t\n\r #%/:<>?@[\\\]^|]/.test(host)) return 'invalid domain character'
  return 'invalid international domain name'
}

/**
 * Where a request's JWT comes from, in Payload's order (`jwtOrder`): `Authorization: JWT <t>`, then
 * `Authorization: Bearer <t>`, then the `<prefix>-token` cookie. The cookie is trusted only when it cannot be a
 * cross-site request (Payload's CSRF rule): an `Origin` header must be in the csrf list (or the list is empty);
 * without `Origin`, a non-empty list also needs `Sec-Fetch-Site` to say same-origin, same-site or none.
 */

export function parseCookies(header: string | undefined): Map<string, string> {
  const cookies = new Map<string, string>()
  if (!header) return cookies
  for (const part of header.split(';')) {
    const eq = part.indexOf('=')
    if (eq < 0) continue
    const name = part.slice(0, eq).trim()
    try {
      cookies.set(name, decodeURI(part.slice(eq + 1).trim()))
    } catch {
      // An undecodable value is ignored, as Payload does.
    }
  }
  return cookies
}

export function extractToken(headers: Map<string, string>, cookiePrefix: string, csrf: string[]): string | null {
  const authorization = headers.get('authorization')
  if (authorization?.startsWith('JWT ')) return authorization.slice(4) || null
  if (authorization?.startsWith('Bearer ')) return authorization.slice(7) || null
  const cookie = parseCookies(headers.get('cookie')).get(`${cookiePrefix}-token`)
  if (!cookie) return null
  const origin = headers.get('origin')
  if (origin) return csrf.length === 0 || csrf.includes(origin) ? cookie : null
  if (csrf.length === 0) return cookie
  const site = headers.get('sec-fetch-site')
  return site === 'same-origin' || site === 'same-site' || site === 'none' ? cookie : null
}

/**
 * The token cookie as Payload writes it (`generatePayloadCookie`): `<prefix>-token=<jwt>; Expires=<date>;
 * [Domain=..;] Path=/; [Secure;] HttpOnly; SameSite=<..>`, expiring with the token; logout sends the same cookie
 * empty with an expiry in the past. SameSite=None forces Secure, as browsers require.
 */
import type { AuthCollection, AuthService } from '../service.js'

function cookie(auth: AuthService, collection: AuthCollection, value: string, expires: Date): string {
  const { sameSite, secure, domain } = collection.auth.cookies
  let out = `${auth.config.cookiePrefix}-token=${value}; Expires=${expires.toUTCString()}`
  if (domain) out += `; Domain=${domain}`
  out += '; Path=/'
  if (secure || sameSite === 'None') out += '; Secure'
  out += '; HttpOnly'
  if (sameSite) out += `; SameSite=${sameSite}`
  return out
}

export function tokenCookie(auth: AuthService, collection: AuthCollection, token: string): string {
  return cookie(auth, collection, token, new Date(Date.now() + collection.auth.tokenExpiration * 1000))
}

export function expiredCookie(auth: AuthService, collection: AuthCollection): string {
  return cookie(auth, collection, '', new Date(Date.now() - 1000))
}

/**
 * Who a request is (Payload's `executeAuthStrategies`): the JWT strategy first, then each collection's API-key
 * strategy. A JWT counts only when its signature and expiry check out, its user still exists (and is verified,
 * where verification is on) and, with sessions, its `sid` is still one of the user's sessions.
 */
import { apiKeyIndex } from '../crypto/api-key.js'
import type { AuthService, AuthUser } from '../service.js'
import { hasSession } from '../sessions.js'
import { userView } from '../user-view.js'
import type { UserRecord } from '../store/user-record.js'
import { extractToken } from './extract-token.js'

export function authenticate(auth: AuthService, headers: Map<string, string>): AuthUser | null {
  return jwtStrategy(auth, headers) ?? apiKeyStrategy(auth, headers)
}

function jwtStrategy(auth: AuthService, headers: Map<string, string>): AuthUser | null {
  const token = extractToken(headers, auth.config.cookiePrefix, auth.config.csrf)
  if (!token) return null
  const claims = auth.tokens.verify(token)
  if (!claims) return null
  const collection = auth.collection(claims.collection)
  if (!collection) return null
  const record = auth.users.get(collection.slug, claims.id)
  if (!record || (collection.auth.verify && !record._verified)) return null
  if (collection.auth.useSessions && !hasSession(record.sessions, claims.sid)) return null
  return asAuthUser(auth, collection.slug, record, 'local-jwt', collection.auth.useSessions ? claims.sid : undefined)
}

function apiKeyStrategy(auth: AuthService, headers: Map<string, string>): AuthUser | null {
  const authorization = headers.get('authorization')
  if (!authorization) return null
  for (const collection of auth.collections) {
    const prefix = `${collection.slug} API-Key `
    if (!collection.auth.useAPIKey || !authorization.startsWith(prefix)) continue
    const record = auth.users.byAPIKeyIndex(collection.slug, apiKeyIndex(authorization.slice(prefix.length), auth.secret))
    if (!record || (collection.auth.verify && record._verified === false)) return null
    return asAuthUser(auth, collection.slug, record, 'api-key', undefined)
  }
  return null
}

/** `req.user`: the user as the local API reads it, with its collection, strategy and session. */
export function asAuthUser(auth: AuthService, slug: string, record: UserRecord, strategy: 'local-jwt' | 'api-key', sid: string | undefined): AuthUser {
  const collection = auth.collection(slug)!
  const doc = userView(collection, record, auth.secret, { viewer: null, overrideAccess: true })
  return { ...doc, id: record.id, email: record.email, collection: slug, _strategy: strategy, ...(sid !== undefined ? { _sid: sid } : {}) }
}

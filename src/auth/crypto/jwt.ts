/**
 * Payload's JWTs: HS256, signed with `sha256(secret)` as hex cut to 32 characters (Payload's `payload.secret`,
 * also the key of API-key encryption and indexing). Verified tokens are cached until they expire: an HMAC check
 * costs ~0.3 ms in `jsonwebtoken`, and an authenticated request would otherwise pay it every time. The cache
 * only skips the signature check; what a token may do (its session, its user) is looked up on every request.
 */
import { createHash } from 'node:crypto'
import { createRequire } from 'node:module'

/**
 * `jsonwebtoken` is loaded on first use, not at start-up: it costs ~0.1-0.3 s to load, and a server whose auth
 * collections never see a login should not pay it on every start (the test suite starts hundreds).
 */
let loaded: typeof import('jsonwebtoken') | null = null
function jwt(): typeof import('jsonwebtoken') {
  return (loaded ??= createRequire(import.meta.url)('jsonwebtoken') as typeof import('jsonwebtoken'))
}

export function deriveSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex').slice(0, 32)
}

/** The claims Tessera signs: `id`, `collection`, `email`, `sid` and the `saveToJWT` fields, then `iat`, `exp`. */
export interface TokenClaims {
  id: string
  collection: string
  email: string
  sid?: string
  iat: number
  exp: number
  [claim: string]: unknown
}

const CACHE_LIMIT = 10_000

export class TokenSigner {
  private readonly cache = new Map<string, TokenClaims>()

  constructor(private readonly key: string) {}

  sign(fields: Record<string, unknown>, expiresInSeconds: number): { token: string; exp: number } {
    const iat = Math.floor(Date.now() / 1000)
    const exp = iat + expiresInSeconds
    const token = jwt().sign({ ...fields, iat, exp }, this.key, { algorithm: 'HS256' })
    return { token, exp }
  }

  /** The claims of a valid, unexpired token; null for anything else (bad signature, expired, malformed). */
  verify(token: string): TokenClaims | null {
    const now = Math.floor(Date.now() / 1000)
    const cached = this.cache.get(token)
    if (cached) {
      if (cached.exp > now) return cached
      this.cache.delete(token)
      return null
    }
    let claims: TokenClaims
    try {
      claims = jwt().verify(token, this.key, { algorithms: ['HS256'] }) as TokenClaims
    } catch {
      return null
    }
    if (typeof claims !== 'object' || typeof claims.id !== 'string' || typeof claims.collection !== 'string' || typeof claims.exp !== 'number') return null
    if (this.cache.size >= CACHE_LIMIT) this.evictExpiredOrOldest(now)
    this.cache.set(token, claims)
    return claims
  }

  private evictExpiredOrOldest(now: number): void {
    for (const [token, claims] of this.cache) if (claims.exp <= now) this.cache.delete(token)
    // Still full: drop the oldest entries (a Map iterates in insertion order).
    for (const token of this.cache.keys()) {
      if (this.cache.size < CACHE_LIMIT * 0.9) break
      this.cache.delete(token)
    }
  }
}

/** The `exp` of a token without checking it (Payload's `me` reports the presented token's expiry). */
export function decodeExp(token: string): number | undefined {
  const decoded = jwt().decode(token)
  return decoded && typeof decoded === 'object' && typeof decoded.exp === 'number' ? decoded.exp : undefined
}

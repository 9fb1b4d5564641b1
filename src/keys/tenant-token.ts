/**
 * Tenant tokens: JWTs (HS256, HS384 or HS512) signed with an API key's value, whose claims name that key
 * (`apiKeyUid`), the `searchRules` that narrow it and an optional expiry (`exp`, Unix seconds). Verified as
 * Meilisearch verifies them (`extractors/authentication/mod.rs`): the claims are read first without the signature
 * (to learn which key signed), then the algorithm and the signature are checked against that key's value, then
 * the expiry. Each failure gets Meilisearch's message; a bearer token with fewer than three dot-separated parts is
 * no tenant token at all and is tried as an API key instead.
 *
 * Signatures use `node:crypto` HMAC (not the `jsonwebtoken` package): the checks must happen in Meilisearch's
 * order with its messages, which a generic JWT library words and orders otherwise, and a raw HMAC is the cheapest
 * verification there is. Verified tokens are kept in a bounded LRU cache keyed by the token itself, so a search
 * with a token costs a map look-up; the expiry is checked on every use, and the signing key is looked up live by
 * the caller, so a deleted or expired key stops its tokens at once.
 */
import crypto from 'node:crypto'
import { TesseraError } from '../../engine/errors/index.js'
import { Base64Error, decodeBase64Url } from './base64url.js'
import type { SearchRules } from './search-rules.js'
import { sameBytes } from './secret.js'
import { ClaimsError, readClaims, readHeader, type Claims } from './token-claims.js'

export interface VerifiedToken {
  apiKeyUid: string
  searchRules: SearchRules
  exp: number | null
}

const HASH_OF: Record<string, string> = { HS256: 'sha256', HS384: 'sha384', HS512: 'sha512' }

/** Tokens longer than this are verified on every use rather than cached (the cache's memory stays bounded). */
const MAX_CACHED_TOKEN_BYTES = 8192

const decodeError = (message: string) => new TesseraError('invalid_api_key', `Could not decode tenant token, ${message}.`)

function decodePart(part: string): Buffer {
  try {
    return decodeBase64Url(part)
  } catch (err) {
    if (err instanceof Base64Error) throw decodeError(`Base64 error: ${err.message}`)
    throw err
  }
}

function readPart<T>(read: () => T): T {
  try {
    return read()
  } catch (err) {
    if (err instanceof ClaimsError) throw decodeError(`JSON error: ${err.message}`)
    throw err
  }
}

export class TenantTokens {
  private readonly cache = new Map<string, VerifiedToken>()

  /** `valueOf(uid)`: the value of the key with that uid, derived from the master key. */
  constructor(private readonly valueOf: (uid: string) => string, private readonly capacity = 10_000) {}

  /**
   * The token's claims once verified, or null when `token` is no JWT; throws `invalid_api_key` with Meilisearch's
   * message for a malformed, forged or expired token. `now` is in Unix seconds.
   */
  verify(token: string, now = Math.floor(Date.now() / 1000)): VerifiedToken | null {
    let verified = this.cache.get(token)
    if (verified !== undefined) {
      // Most recently used last: the first entry is the one to evict.
      this.cache.delete(token)
      this.cache.set(token, verified)
    } else {
      const parsed = this.check(token)
      if (parsed === null) return null
      verified = parsed
      if (token.length <= MAX_CACHED_TOKEN_BYTES) {
        if (this.cache.size >= this.capacity) this.cache.delete(this.cache.keys().next().value!)
        this.cache.set(token, verified)
      }
    }
    if (verified.exp !== null && now > verified.exp) {
      throw new TesseraError('invalid_api_key', `Tenant token expired. Was valid up to \`${verified.exp}\` and we're now \`${now}\`.`)
    }
    return verified
  }

  /** Number of tokens held (for tests). */
  get size(): number {
    return this.cache.size
  }

  private check(token: string): VerifiedToken | null {
    // `jsonwebtoken` splits from the right: signature, then payload, then everything before as the header.
    const lastDot = token.lastIndexOf('.')
    const secondDot = lastDot < 0 ? -1 : token.lastIndexOf('.', lastDot - 1)
    if (secondDot < 0) return null
    const signingInput = token.slice(0, lastDot)
    const header = readPart(() => readHeader(decodePart(token.slice(0, secondDot))))
    const claims: Claims = readPart(() => readClaims(decodePart(token.slice(secondDot + 1, lastDot))))
    if (claims.audience) throw decodeError('InvalidAudience')
    const hash = HASH_OF[header.alg]
    if (hash === undefined) throw decodeError('InvalidAlgorithm')
    const expected = crypto.createHmac(hash, this.valueOf(claims.apiKeyUid)).update(signingInput).digest('base64url')
    if (!sameBytes(Buffer.from(token.slice(lastDot + 1)), Buffer.from(expected))) throw decodeError('InvalidSignature')
    return { apiKeyUid: claims.apiKeyUid, searchRules: claims.searchRules, exp: claims.exp }
  }
}

/**
 * The access check every route passes before its handler runs (and before any body is read), following
 * Meilisearch's `GuardedData` extractor and `ActionPolicy` (`extractors/authentication/mod.rs`):
 *
 * - No `Authorization` header: open when no master key is set (but `/keys` answers `missing_master_key`),
 *   else `missing_authorization_header`. A scheme other than exactly `Bearer` is `missing_authorization_header`
 *   even without a master key; `Bearer` with nothing after it is `invalid_api_key`.
 * - The master key (its SHA-256 compared in constant time with the token's) may do everything.
 * - On search routes a JWT is tried as a tenant token first (tenant-token.ts); otherwise the token must be an API
 *   key's value. The key must allow the route's index (a tenant token's rules too), each refusal with its own
 *   message, then hold the route's action, unexpired. A key restricted to some indexes never passes an
 *   instance-wide route (`GLOBAL_ACTIONS`), whatever its actions.
 */
import { TesseraError } from '../../engine/errors/index.js'
import { debugList } from '../../engine/operations/multi-search.js'
import type { Access } from '../http/router.js'
import type { Request } from '../http/types.js'
import { GLOBAL_ACTIONS, KEY_ACTIONS, isAction } from './actions.js'
import { FULL_GRANT, keyGrant, type Grant } from './grant.js'
import { anyMatches } from './index-pattern.js'
import type { KeyStore, LoadedKey } from './key-store.js'
import { isIndexAuthorizedBy, rulePatterns, type SearchRules } from './search-rules.js'
import { sameDigest, secretDigest } from './secret.js'
import { TenantTokens } from './tenant-token.js'

export const invalidApiKey = (message = 'The provided API key is invalid.') => new TesseraError('invalid_api_key', message)
const missingAuthorizationHeader = () => new TesseraError('missing_authorization_header', 'The Authorization header is missing. It must use the bearer authorization method.')
const missingMasterKey = () => new TesseraError('missing_master_key', 'Meilisearch is running without a master key. To access this API endpoint, you must have set a master key at launch.')

/** What actix's `HeaderValue::to_str` accepts: visible ASCII and tabs. Anything else reads as an empty value. */
const VISIBLE_ASCII = /^[\t\x20-\x7e]*$/

export class Guard {
  readonly tokens: TenantTokens

  constructor(readonly keys: KeyStore, tokenCacheSize?: number) {
    this.tokens = new TenantTokens((uid) => keys.valueOf(uid), tokenCacheSize)
  }

  /** Check a request against a route's access; `indexUid` is the route's index, when it has one. */
  check(req: Request, access: Access, indexUid: string | undefined): Grant {
    switch (access.kind) {
      case 'public':
      case 'collections':
        // The auth collections (area A) authenticate with their own tokens, as Payload does.
        return FULL_GRANT
      case 'serviceKey':
        // The workflow API checks its key itself, in n8n's words and order (keys/service-key.ts).
        return FULL_GRANT
      case 'key': {
        const header = req.headers.get('authorization')
        if (header === undefined) return this.authorize(null, access.action, indexUid, access.tenantToken === true)
        const value = VISIBLE_ASCII.test(header) ? header : ''
        const space = value.indexOf(' ')
        if ((space < 0 ? value : value.slice(0, space)) !== 'Bearer') throw missingAuthorizationHeader()
        if (space < 0) throw invalidApiKey()
        return this.authorize(value.slice(space + 1), access.action, indexUid, access.tenantToken === true)
      }
    }
  }

  /** `token` null: none was sent. */
  authorize(token: string | null, action: string, indexUid: string | undefined, tenantTokens: boolean, now = Date.now()): Grant {
    const master = this.keys.masterKey
    if (master === null) {
      if (KEY_ACTIONS.has(action)) throw missingMasterKey()
      return FULL_GRANT
    }
    if (token === null) throw missingAuthorizationHeader()
    // One SHA-256 of the token serves both constant-time comparisons: with the master key and with the keys' values.
    const digest = secretDigest(token)
    if (sameDigest(digest, this.keys.masterDigest!)) return FULL_GRANT

    let key: LoadedKey | undefined
    let rules: SearchRules | null = null
    const verified = tenantTokens ? this.tokens.verify(token, Math.floor(now / 1000)) : null
    if (verified !== null) {
      key = this.keys.get(verified.apiKeyUid)
      rules = verified.searchRules
    } else {
      key = this.keys.findByValue(token, digest)
    }
    if (key === undefined) throw invalidApiKey()

    if (indexUid !== undefined) {
      // A token's rules are the client's own: it may be told which indexes they allow.
      if (rules !== null && !isIndexAuthorizedBy(rules, indexUid)) {
        throw invalidApiKey(`The provided tenant token cannot acces the index \`${indexUid}\`, allowed indexes are ${debugList(rulePatterns(rules))}.`)
      }
      if (!key.allIndexes && !anyMatches(key.indexes, indexUid)) {
        // The signing key's patterns are not the token holder's to know.
        if (rules !== null) throw invalidApiKey(`The API key used to generate this tenant token cannot acces the index \`${indexUid}\`.`)
        const allowed = [...key.indexes].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
        throw invalidApiKey(`The API key cannot acces the index \`${indexUid}\`, authorized indexes are ${debugList(allowed)}.`)
      }
    }
    if (!keyAllows(key, action, now)) throw invalidApiKey()
    return keyGrant(key, rules)
  }
}

/** The key holds `action` (after expansion), is not expired, and allows at least one index. */
export function keyAllows(key: LoadedKey, action: string, now: number): boolean {
  if (key.expiresAt !== null && now * 1000 >= key.expiresAt.at) return false
  if (key.indexes.length === 0 || !isAction(action) || !key.granted.has(action)) return false
  return key.allIndexes || !GLOBAL_ACTIONS.has(action)
}

/**
 * The key system's answer for the workflow API (area D): its routes read the key from `X-SERVICE-API-KEY` and
 * answer in n8n's words and order (a missing or unknown key before the request is validated, a key without the
 * route's action after it), so they ask this check rather than the guard, which answers in Meilisearch's words.
 * The keys are the same: the master key, and keys made through `/keys` with workflow actions.
 */
import type { ServiceKeyCheck } from '../workflows/auth.js'
import { keyAllows } from './guard.js'
import type { KeyStore } from './key-store.js'
import { sameDigest, secretDigest } from './secret.js'

export function serviceKeyCheck(keys: KeyStore): ServiceKeyCheck {
  return (key, action) => {
    // Without a master key every request is allowed, as every other route of Tessera is open then.
    if (keys.masterKey === null) return 'ok'
    if (key === undefined || key === '') return 'missing'
    const digest = secretDigest(key)
    if (sameDigest(digest, keys.masterDigest!)) return 'ok'
    const found = keys.findByValue(key, digest)
    if (found === undefined) return 'invalid'
    const now = Date.now()
    // An expired key is no key at all; a valid one without the action is refused after validation.
    if (found.expiresAt !== null && now * 1000 >= found.expiresAt.at) return 'invalid'
    return keyAllows(found, action, now) ? 'ok' : 'forbidden'
  }
}

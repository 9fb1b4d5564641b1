/**
 * Verify an email (Payload's `verifyEmailOperation`): the token from the verification mail — never a reset
 * token, which lives in another field — sets `_verified` and is retired.
 */
import { APIError } from '../errors.js'
import { MESSAGES } from '../messages.js'
import type { OperationArgs } from './types.js'

export async function verifyEmailOperation({ auth, collection, token }: OperationArgs & { token: unknown }): Promise<boolean> {
  if (token === undefined || token === null) throw new APIError(MESSAGES.missingRequiredData, 400)
  const found = typeof token === 'string' && token !== '' ? auth.users.byVerificationToken(collection.slug, token) : null
  if (!found || !collection.auth.verify) throw new APIError(MESSAGES.verificationTokenInvalid, 403)
  let verified = false
  await auth.users.update(collection.slug, found.id, (current) => {
    // Re-checked under the user's lock: the same token cannot verify twice.
    if (current._verificationToken !== token) return null
    verified = true
    return { ...current, _verified: true, _verificationToken: null }
  })
  if (!verified) throw new APIError(MESSAGES.verificationTokenInvalid, 403)
  return true
}

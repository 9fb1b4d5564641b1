/**
 * Unlock (Payload's `unlockOperation`): with the collection's `unlock` access, clear a user's failed attempts
 * and lock. True when the user exists, null otherwise (REST answers "Success" either way).
 */
import { executeAccess } from '../access/execute.js'
import { APIError } from '../errors.js'
import { MESSAGES } from '../messages.js'
import { clearedAttempts } from '../lockout.js'
import { normalizeEmail } from './validate.js'
import type { OperationArgs } from './types.js'

export async function unlockOperation({ auth, collection, req, data, overrideAccess }: OperationArgs & {
  data: { email?: unknown }
  overrideAccess?: boolean
}): Promise<true | null> {
  const email = normalizeEmail(data?.email)
  if (!email) throw new APIError(MESSAGES.missingEmail, 400)
  if (!overrideAccess) await executeAccess(collection.access.unlock, { req: { user: req.user } })
  const user = auth.users.byEmail(collection.slug, email)
  if (!user) return null
  await auth.users.update(collection.slug, user.id, clearedAttempts)
  return true
}

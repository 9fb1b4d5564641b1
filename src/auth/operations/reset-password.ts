/**
 * Reset password (Payload's `resetPasswordOperation`): a reset token that has not expired sets a new password,
 * expires the token (it works once), opens a session and logs the user in.
 */
import { hashPassword } from '../crypto/password.js'
import { APIError, ValidationError } from '../errors.js'
import { MESSAGES } from '../messages.js'
import { newSession, pruneSessions } from '../sessions.js'
import type { UserRecord } from '../store/user-record.js'
import { asAuthUser } from '../strategies/authenticate.js'
import { findByIDOperation } from './find.js'
import { signUserToken } from './sign-token.js'
import { passwordError } from './validate.js'
import type { OperationArgs } from './types.js'

export interface ResetPasswordResult {
  token: string
  user: Record<string, unknown>
}

const usable = (record: UserRecord, token: string, now: number) =>
  record.resetPasswordToken === token && typeof record.resetPasswordExpiration === 'string' && Date.parse(record.resetPasswordExpiration) > now

export async function resetPasswordOperation(args: OperationArgs & { data: { token?: unknown; password?: unknown }; overrideAccess?: boolean }): Promise<ResetPasswordResult> {
  const { auth, collection, data } = args
  if (typeof data !== 'object' || data === null || !('token' in data) || !('password' in data)) throw new APIError(MESSAGES.missingRequiredData, 400)
  const token = data.token
  const invalid = () => new APIError(MESSAGES.tokenInvalidOrExpired, 403)
  const found = typeof token === 'string' && token !== '' ? auth.users.byResetToken(collection.slug, token) : null
  if (!found || !usable(found, token as string, Date.now())) throw invalid()
  const badPassword = passwordError(data.password)
  if (badPassword) throw new ValidationError(collection.slug, [badPassword])
  const password = await hashPassword(data.password as string)

  let sid: string | undefined
  let used = false
  const updated = await auth.users.update(collection.slug, found.id, (current) => {
    const now = Date.now()
    // Under the user's lock: of two resets with one token, only the first gets through.
    if (!usable(current, token as string, now)) return null
    used = true
    const next: UserRecord = { ...current, ...password, resetPasswordExpiration: new Date(now).toISOString(), updatedAt: new Date(now).toISOString() }
    if (collection.auth.useSessions) {
      const session = newSession(now, collection.auth.tokenExpiration)
      sid = session.id
      next.sessions = [...pruneSessions(current.sessions, now), session]
    }
    return next
  })
  if (!used || !updated) throw invalid()
  const self = asAuthUser(auth, collection.slug, updated, 'local-jwt', sid)
  const { token: jwt } = signUserToken(auth, collection, self, updated.email, sid)
  const user = await findByIDOperation({ ...args, id: updated.id, overrideAccess: args.overrideAccess ?? true })
  return { token: jwt, user: { ...user, collection: collection.slug, _strategy: 'local-jwt' } }
}

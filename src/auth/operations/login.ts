/**
 * Login (Payload's `loginOperation`): find the user by email, refuse a locked one before looking at the
 * password, count a wrong password atomically (the attempt that reaches the limit still answers "incorrect"),
 * refuse an unverified one only after a correct password, then — in one atomic write, re-checking the lock that
 * parallel attempts may have set meanwhile — add a session and clear the attempt count.
 */
import { AuthenticationError, LockedAuth, UnverifiedEmail, ValidationError } from '../errors.js'
import { MESSAGES } from '../messages.js'
import { verifyPassword } from '../crypto/password.js'
import { clearedAttempts, failedAttempt, isLocked } from '../lockout.js'
import { newSession, pruneSessions } from '../sessions.js'
import type { UserRecord } from '../store/user-record.js'
import { asAuthUser } from '../strategies/authenticate.js'
import { userView } from '../user-view.js'
import { signUserToken } from './sign-token.js'
import { normalizeEmail } from './validate.js'
import type { OperationArgs } from './types.js'

export interface LoginResult {
  exp: number
  token: string
  user: Record<string, unknown>
}

export async function loginOperation({ auth, collection, data, overrideAccess }: OperationArgs & {
  data: { email?: unknown; password?: unknown }
  overrideAccess?: boolean
}): Promise<LoginResult> {
  const email = normalizeEmail(data?.email)
  const password = data?.password
  if (!email) throw new ValidationError(collection.slug, [{ message: MESSAGES.required, path: 'email' }])
  if (typeof password !== 'string' || password.trim() === '') throw new ValidationError(collection.slug, [{ message: MESSAGES.required, path: 'password' }])

  const slug = collection.slug
  const found = auth.users.byEmail(slug, email)
  if (!found) throw new AuthenticationError()
  if (isLocked(found, Date.now())) throw new LockedAuth()

  const lockout = collection.auth.maxLoginAttempts > 0
  if (!(await verifyPassword(password, found.salt, found.hash))) {
    if (lockout) {
      let locked = false
      await auth.users.update(slug, found.id, (current) => {
        const attempt = failedAttempt(current, collection.auth, Date.now())
        locked = attempt.locked
        return attempt.next
      })
      if (locked) throw new LockedAuth()
    }
    throw new AuthenticationError()
  }
  if (collection.auth.verify && found._verified === false) throw new UnverifiedEmail()

  let lockedMeanwhile = false
  let sid: string | undefined
  const updated = await auth.users.update(slug, found.id, (current) => {
    const now = Date.now()
    if (lockout && isLocked(current, now)) {
      lockedMeanwhile = true
      return null
    }
    let next: UserRecord = lockout ? clearedAttempts(current) ?? current : current
    if (collection.auth.useSessions) {
      const session = newSession(now, collection.auth.tokenExpiration)
      sid = session.id
      next = { ...next, sessions: [...pruneSessions(current.sessions, now), session] }
    }
    return next === current ? null : next
  })
  if (lockedMeanwhile) throw new LockedAuth()
  if (!updated) throw new AuthenticationError() // deleted meanwhile

  const self = asAuthUser(auth, slug, updated, 'local-jwt', sid)
  const { token, exp } = signUserToken(auth, collection, self, email, sid)
  const user = userView(collection, updated, auth.secret, { viewer: self, overrideAccess })
  return { exp, token, user: { ...user, collection: slug, _strategy: 'local-jwt' } }
}

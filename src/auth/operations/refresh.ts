/**
 * Refresh (Payload's `refreshOperation`): a new token for the logged-in user, keeping its session id and moving
 * the session's expiry (expired sessions are pruned in the same write). Without a valid token: 403.
 */
import { Forbidden } from '../errors.js'
import { pruneSessions } from '../sessions.js'
import { findByIDOperation } from './find.js'
import { signUserToken } from './sign-token.js'
import type { OperationArgs } from './types.js'

export interface RefreshResult {
  exp: number
  refreshedToken: string
  strategy: string
  user: Record<string, unknown>
}

export async function refreshOperation(args: OperationArgs): Promise<RefreshResult> {
  const { auth, collection, req } = args
  const current = req.user
  if (!current || current.collection !== collection.slug) throw new Forbidden()
  const sid = current._sid
  if (collection.auth.useSessions) {
    if (!sid) throw new Forbidden()
    let found = false
    await auth.users.update(collection.slug, current.id, (record) => {
      const now = Date.now()
      const sessions = pruneSessions(record.sessions, now)
      const session = sessions.find((s) => s.id === sid)
      if (!session) return null
      found = true
      session.expiresAt = new Date(now + collection.auth.tokenExpiration * 1000).toISOString()
      return { ...record, sessions }
    })
    // Logged out (or expired) between authentication and now.
    if (!found) throw new Forbidden()
  }
  const user = await findByIDOperation({ ...args, id: current.id, overrideAccess: true })
  const { token, exp } = signUserToken(auth, collection, current, String(user.email), sid)
  return { exp, refreshedToken: token, strategy: current._strategy, user: { ...user, collection: collection.slug, _strategy: current._strategy } }
}

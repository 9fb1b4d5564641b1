/**
 * Logout (Payload's `logoutOperation`): removes the token's session, or every session of the user with
 * `allSessions`, so the token stops working at once even before it expires. Nobody logged in: 400 "No User".
 */
import { APIError } from '../errors.js'
import { MESSAGES } from '../messages.js'
import type { OperationArgs } from './types.js'

export async function logoutOperation({ auth, collection, req, allSessions = false }: OperationArgs & { allSessions?: boolean }): Promise<boolean> {
  const user = req.user
  if (!user) throw new APIError(MESSAGES.noUser, 400)
  if (user.collection !== collection.slug) throw new APIError(MESSAGES.incorrectCollection, 403)
  if (collection.auth.useSessions) {
    const result = await auth.users.update(collection.slug, user.id, (record) => {
      const sessions = record.sessions ?? []
      const kept = allSessions ? [] : sessions.filter((s) => s.id !== user._sid)
      return kept.length === sessions.length ? null : { ...record, sessions: kept }
    })
    if (result === null) throw new APIError(MESSAGES.noUser, 400)
  }
  return true
}

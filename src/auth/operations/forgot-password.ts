/**
 * Forgot password (Payload's `forgotPasswordOperation`): a 40-hex-character reset token with an expiry, mailed
 * as a link unless `disableEmail`. An unknown email changes nothing and is not told apart (no enumeration): the
 * local API gets null, REST and GraphQL answer as for a known one.
 */
import { randomToken } from '../crypto/random-token.js'
import { resetPasswordMail } from '../email/messages.js'
import { APIError } from '../errors.js'
import { MESSAGES } from '../messages.js'
import { userView } from '../user-view.js'
import { normalizeEmail } from './validate.js'
import type { OperationArgs } from './types.js'

export async function forgotPasswordOperation({ auth, collection, req, data, disableEmail, expiration }: OperationArgs & {
  data: { email?: unknown }
  disableEmail?: boolean
  /** Milliseconds the token lives, unless the collection configures `forgotPassword.expiration`. */
  expiration?: number
}): Promise<string | null> {
  const email = normalizeEmail(data?.email)
  if (!email) throw new APIError(MESSAGES.missingEmail, 400)
  const user = auth.users.byEmail(collection.slug, email)
  if (!user) return null
  const token = randomToken()
  const lifetime = collection.auth.forgotPassword.expiration ?? (typeof expiration === 'number' && Number.isFinite(expiration) ? expiration : 3600000)
  const updated = await auth.users.update(collection.slug, user.id, (current) => ({
    ...current,
    resetPasswordToken: token,
    resetPasswordExpiration: new Date(Date.now() + lifetime).toISOString(),
  }))
  if (!updated) return null
  if (!disableEmail) {
    const doc = userView(collection, updated, auth.secret, { viewer: null, overrideAccess: true })
    await auth.mailer.send(await resetPasswordMail(auth.config.serverURL, collection.auth.forgotPassword, {
      to: updated.email, token, user: doc, requestOrigin: req.origin,
    }))
  }
  return token
}

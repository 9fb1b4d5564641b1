/**
 * Update a user by id (Payload's `updateByID` for an auth collection): access (a `Where` must match the user),
 * then one atomic change: the collection's fields, email (unique), a new password, `_verified` (which clears the
 * verification token), the API key, and — bypassing access only — the lockout fields.
 */
import { executeAccess, whereOf } from '../access/execute.js'
import { hashPassword } from '../crypto/password.js'
import { NotFound, ValidationError } from '../errors.js'
import { MESSAGES } from '../messages.js'
import type { UserRecord } from '../store/user-record.js'
import { userView } from '../user-view.js'
import { matchesWhere } from '../where.js'
import { emailError, normalizeEmail, passwordError } from './validate.js'
import { applyAPIKey, applyCustomFields } from './write-fields.js'
import type { OperationArgs } from './types.js'

export async function updateOperation(args: OperationArgs & {
  id: string
  data: Record<string, unknown>
  overrideAccess?: boolean
  showHiddenFields?: boolean
}): Promise<Record<string, unknown>> {
  const { auth, collection, req, id, overrideAccess } = args
  const data: Record<string, unknown> = typeof args.data === 'object' && args.data !== null && !Array.isArray(args.data) ? args.data : {}
  const slug = collection.slug
  const constraint = overrideAccess ? null : whereOf(await executeAccess(collection.access.update, { req: { user: req.user }, id, data }))
  const existing = typeof id === 'string' ? auth.users.get(slug, id) : null
  if (!existing) throw new NotFound()
  if (constraint && !matchesWhere(userView(collection, existing, auth.secret, { viewer: null, overrideAccess: true }), constraint)) throw new NotFound()

  if (data.email !== undefined) {
    const error = emailError(data.email)
    if (error) throw new ValidationError(slug, [error])
  }
  const email = data.email !== undefined ? normalizeEmail(data.email)! : undefined
  let password: { salt: string; hash: string } | null = null
  if (data.password !== undefined) {
    const error = passwordError(data.password)
    if (error) throw new ValidationError(slug, [error])
    password = await hashPassword(data.password as string)
  }
  const mayVerify = overrideAccess || req.user !== null

  const result = await auth.users.update(slug, id, (current) => {
    const next: UserRecord = { ...current, updatedAt: new Date().toISOString() }
    applyCustomFields(collection, next, data)
    if (email !== undefined) next.email = email
    if (password) Object.assign(next, password)
    if (collection.auth.verify && mayVerify && typeof data._verified === 'boolean') {
      // Payload's autoRemoveVerificationToken: verifying by hand retires the emailed token.
      if (data._verified && current._verified === false) next._verificationToken = null
      next._verified = data._verified
    }
    if (overrideAccess && collection.auth.maxLoginAttempts > 0) {
      const lockUntil = Date.parse(String(data.lockUntil))
      if (data.lockUntil === null) next.lockUntil = null
      else if (Number.isFinite(lockUntil)) next.lockUntil = new Date(lockUntil).toISOString()
      if (typeof data.loginAttempts === 'number') next.loginAttempts = data.loginAttempts
    }
    applyAPIKey(collection, auth.secret, next, data)
    return next
  }, email)
  if (result === false) throw new ValidationError(slug, [{ message: MESSAGES.userEmailAlreadyRegistered, path: 'email' }])
  if (result === null) throw new NotFound()
  return userView(collection, result, auth.secret, { viewer: req.user, overrideAccess, showHiddenFields: args.showHiddenFields })
}

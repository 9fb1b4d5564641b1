/**
 * Create a user (Payload's `createOperation` for an auth collection with the local strategy): access, email
 * validation, the duplicate check, password validation and hashing, the verification token (with verification
 * on) and its email, then one durable insert.
 */
import { executeAccess } from '../access/execute.js'
import { hashPassword } from '../crypto/password.js'
import { newId, randomToken } from '../crypto/random-token.js'
import { verificationMail } from '../email/messages.js'
import { ValidationError } from '../errors.js'
import { MESSAGES } from '../messages.js'
import type { UserRecord } from '../store/user-record.js'
import { userView } from '../user-view.js'
import { emailError, normalizeEmail, passwordError } from './validate.js'
import { applyAPIKey, applyCustomFields, missingRequiredFields } from './write-fields.js'
import type { OperationArgs } from './types.js'

export interface CreateOptions {
  data: Record<string, unknown>
  overrideAccess?: boolean
  showHiddenFields?: boolean
  disableVerificationEmail?: boolean
}

export async function createOperation(args: OperationArgs & CreateOptions): Promise<Record<string, unknown>> {
  const { auth, collection, req, overrideAccess } = args
  const data: Record<string, unknown> = typeof args.data === 'object' && args.data !== null && !Array.isArray(args.data) ? args.data : {}
  const slug = collection.slug
  if (!overrideAccess) await executeAccess(collection.access.create, { req: { user: req.user }, data })

  const now = new Date().toISOString()
  const record: UserRecord = { id: newId(), email: '', createdAt: now, updatedAt: now }
  applyCustomFields(collection, record, data)
  const fieldErrors = [emailError(data.email), ...missingRequiredFields(collection, record)].filter((e) => e !== null)
  if (fieldErrors.length > 0) throw new ValidationError(slug, fieldErrors)
  record.email = normalizeEmail(data.email)!
  const duplicate = new ValidationError(slug, [{ message: MESSAGES.userEmailAlreadyRegistered, path: 'email' }])
  if (auth.users.byEmail(slug, record.email)) throw duplicate
  const badPassword = passwordError(data.password)
  if (badPassword) throw new ValidationError(slug, [badPassword])

  Object.assign(record, await hashPassword(data.password as string))
  if (collection.auth.verify) {
    // `_verified` may be set only by someone logged in (its field access) or a caller bypassing access.
    record._verified = (overrideAccess || req.user !== null) && data._verified === true
    record._verificationToken = randomToken()
  }
  if (collection.auth.maxLoginAttempts > 0) record.loginAttempts = 0
  if (collection.auth.useSessions) record.sessions = []
  applyAPIKey(collection, auth.secret, record, data)
  if (!(await auth.users.insert(slug, record))) throw duplicate

  const doc = userView(collection, record, auth.secret, { viewer: req.user, overrideAccess, showHiddenFields: args.showHiddenFields })
  if (collection.auth.verify && !record._verified && !args.disableVerificationEmail) {
    await auth.mailer.send(await verificationMail(auth.config.serverURL, slug, collection.auth.verify, {
      to: record.email, token: record._verificationToken!, user: doc, requestOrigin: req.origin,
    }))
  }
  return doc
}

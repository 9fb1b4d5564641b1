/**
 * The fields of an auth collection as Payload builds them: the collection's own fields, the timestamps, and the
 * auth fields its options add (API key, email and password hash, verification, lockout, sessions). Permissions,
 * the GraphQL types and the JWT claims are all derived from this one list.
 */
import type { AccessArgs, AccessFunction, FieldConfig, SanitizedCollection } from './config/types.js'

export interface AuthField extends FieldConfig {
  hidden: boolean
  /** Field-level access: where absent, the field follows the collection's permission. */
  access?: { create?: AccessFunction; read?: AccessFunction; update?: AccessFunction }
}

const loggedIn = ({ req }: AccessArgs) => req.user !== null
const never = () => false
/** Payload's `canReadAPIKey`: only the key's owner reads it. */
const ownsDocument = ({ req, id }: AccessArgs) => req.user !== null && id !== undefined && req.user.id === id

export function collectionFields(collection: SanitizedCollection): AuthField[] {
  const { auth } = collection
  const fields: AuthField[] = collection.fields.map((f) => ({ ...f, hidden: f.hidden === true }))
  fields.push({ name: 'updatedAt', type: 'date', hidden: false }, { name: 'createdAt', type: 'date', hidden: false })
  if (auth.useAPIKey) {
    fields.push(
      { name: 'enableAPIKey', type: 'checkbox', hidden: false },
      { name: 'apiKey', type: 'text', hidden: false, access: { read: ownsDocument } },
      { name: 'apiKeyIndex', type: 'text', hidden: true, access: { read: never } },
    )
  }
  fields.push(
    { name: 'email', type: 'email', hidden: false, required: true },
    { name: 'resetPasswordToken', type: 'text', hidden: true },
    { name: 'resetPasswordExpiration', type: 'date', hidden: true },
    { name: 'salt', type: 'text', hidden: true },
    { name: 'hash', type: 'text', hidden: true },
  )
  if (auth.verify) {
    fields.push(
      { name: '_verified', type: 'checkbox', hidden: false, access: { create: loggedIn, read: loggedIn, update: loggedIn } },
      { name: '_verificationToken', type: 'text', hidden: true, access: { create: never, update: never } },
    )
  }
  if (auth.maxLoginAttempts > 0) {
    fields.push({ name: 'loginAttempts', type: 'number', hidden: true }, { name: 'lockUntil', type: 'date', hidden: true })
  }
  if (auth.useSessions) fields.push({ name: 'sessions', type: 'array', hidden: false })
  return fields
}

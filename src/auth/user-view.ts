/**
 * A stored user as an operation returns it (Payload's `afterRead`): hidden fields removed unless
 * `showHiddenFields`, the API key decrypted for those allowed to read it, field access applied to the viewer.
 * The password hash, salt and tokens never leave through here unless a local-API caller asks for hidden fields.
 */
import type { AccessUser } from './config/types.js'
import { decryptAPIKey } from './crypto/api-key.js'
import type { AuthCollection } from './service.js'
import type { UserRecord } from './store/user-record.js'

export interface ViewOptions {
  /** Who is reading: field access (`_verified`, the API key) depends on it. */
  viewer: AccessUser | null
  /** Skip field access (the local API's default). */
  overrideAccess?: boolean
  showHiddenFields?: boolean
}

/** The fields returned only with `showHiddenFields`. */
const HIDDEN = ['resetPasswordToken', 'resetPasswordExpiration', 'salt', 'hash', '_verificationToken', 'loginAttempts', 'lockUntil', 'apiKeyIndex'] as const

export function userView(collection: AuthCollection, record: UserRecord, secret: string, options: ViewOptions): Record<string, unknown> {
  const { auth } = collection
  const override = options.overrideAccess === true
  const viewer = options.viewer
  const doc: Record<string, unknown> = { id: record.id, email: record.email, createdAt: record.createdAt, updatedAt: record.updatedAt }
  if (auth.verify && (override || viewer !== null)) doc._verified = record._verified ?? false
  if (auth.useAPIKey) {
    if (record.enableAPIKey !== undefined) doc.enableAPIKey = record.enableAPIKey
    // Payload's `canReadAPIKey`: the owner (or a caller bypassing access) sees the key.
    const owner = viewer !== null && viewer.collection === collection.slug && viewer.id === record.id
    if (override || owner) {
      if (typeof record.apiKey === 'string' && record.apiKey) doc.apiKey = decryptAPIKey(record.apiKey, secret)
      else if (record.apiKey === null) doc.apiKey = null
    }
  }
  for (const field of collection.customFields) {
    if (field.hidden && !options.showHiddenFields) continue
    if (field.name in record) doc[field.name] = record[field.name]
  }
  if (auth.useSessions) doc.sessions = record.sessions ?? []
  if (options.showHiddenFields) {
    for (const name of HIDDEN) {
      if (name === 'apiKeyIndex' && !auth.useAPIKey) continue
      if ((name === 'loginAttempts' || name === 'lockUntil') && auth.maxLoginAttempts === 0) continue
      if (name === '_verificationToken' && !auth.verify) continue
      doc[name] = record[name] ?? null
    }
  }
  return doc
}

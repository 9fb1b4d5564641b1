/**
 * How incoming data lands in a user record, shared by create and update: the collection's own fields as given,
 * and the API key as Payload sets it — `apiKey` stored encrypted, its HMAC kept as the lookup index while the
 * key is enabled (`enableAPIKey` not false/null), both cleared by `apiKey: null`.
 */
import { apiKeyIndex, decryptAPIKey, encryptAPIKey } from '../crypto/api-key.js'
import type { AuthCollection } from '../service.js'
import type { UserRecord } from '../store/user-record.js'
import { MESSAGES } from '../messages.js'
import type { FieldError } from '../errors.js'

export function applyCustomFields(collection: AuthCollection, record: UserRecord, data: Record<string, unknown>): void {
  for (const field of collection.customFields) if (data[field.name] !== undefined) record[field.name] = data[field.name]
}

export function missingRequiredFields(collection: AuthCollection, record: UserRecord): FieldError[] {
  return collection.customFields
    .filter((f) => f.required && (record[f.name] === undefined || record[f.name] === null || record[f.name] === ''))
    .map((f) => ({ message: MESSAGES.required, path: f.name }))
}

export function applyAPIKey(collection: AuthCollection, secret: string, record: UserRecord, data: Record<string, unknown>): void {
  if (!collection.auth.useAPIKey) return
  if (data.enableAPIKey !== undefined) record.enableAPIKey = data.enableAPIKey === null ? null : Boolean(data.enableAPIKey)
  if (data.apiKey === null || data.apiKey === false || data.apiKey === '') {
    record.apiKey = null
    record.apiKeyIndex = null
    return
  }
  let key: string | null = null
  if (typeof data.apiKey === 'string') {
    key = data.apiKey
    record.apiKey = encryptAPIKey(key, secret)
  } else if (typeof record.apiKey === 'string' && record.apiKey) {
    key = decryptAPIKey(record.apiKey, secret)
  }
  const enabled = record.enableAPIKey !== false && record.enableAPIKey !== null
  record.apiKeyIndex = key && enabled ? apiKeyIndex(key, secret) : null
}

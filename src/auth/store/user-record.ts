/** A user as stored: Payload's auth fields, the collection's custom fields, sessions. */

export interface Session {
  id: string
  createdAt: string
  expiresAt: string
}

export interface UserRecord {
  id: string
  email: string
  createdAt: string
  updatedAt: string
  hash?: string
  salt?: string
  resetPasswordToken?: string | null
  resetPasswordExpiration?: string | null
  _verified?: boolean
  _verificationToken?: string | null
  loginAttempts?: number
  lockUntil?: string | null
  sessions?: Session[]
  enableAPIKey?: boolean | null
  /** Encrypted (see crypto/api-key.ts). */
  apiKey?: string | null
  apiKeyIndex?: string | null
  [field: string]: unknown
}

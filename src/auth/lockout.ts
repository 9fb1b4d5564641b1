/**
 * Account lockout in Payload's order: a locked user is refused before the password is checked; a wrong password
 * increments `loginAttempts` atomically; the attempt that reaches `maxLoginAttempts` sets `lockUntil` but still
 * answers "incorrect", and any attempt counted after it answers "locked". An expired lock restarts the count.
 */
import type { SanitizedAuthOptions } from './config/types.js'
import type { UserRecord } from './store/user-record.js'

export function isLocked(record: UserRecord, now: number): boolean {
  return typeof record.lockUntil === 'string' && Date.parse(record.lockUntil) > now
}

/**
 * The record after one more failed attempt, and whether that attempt is refused as locked: it came after the
 * limit was already reached (by parallel attempts counted before it).
 */
export function failedAttempt(record: UserRecord, auth: SanitizedAuthOptions, now: number): { next: UserRecord; locked: boolean } {
  const expiredLock = typeof record.lockUntil === 'string' && !isLocked(record, now)
  const before = expiredLock ? 0 : record.loginAttempts ?? 0
  const attempts = before + 1
  const next: UserRecord = { ...record, loginAttempts: attempts, lockUntil: expiredLock ? null : record.lockUntil ?? null }
  if (attempts >= auth.maxLoginAttempts && !isLocked(next, now)) next.lockUntil = new Date(now + auth.lockTime).toISOString()
  return { next, locked: before >= auth.maxLoginAttempts || isLocked(record, now) }
}

/** Payload's `resetLoginAttempts`: nothing to write when there is nothing to reset. */
export function clearedAttempts(record: UserRecord): UserRecord | null {
  if (typeof record.lockUntil !== 'string' && !record.loginAttempts) return null
  return { ...record, loginAttempts: 0, lockUntil: null }
}

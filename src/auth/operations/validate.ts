/** Field validation for writes (Payload's email and password validators), collected into one ValidationError. */
import { MESSAGES } from '../messages.js'
import type { FieldError } from '../errors.js'

/** Payload's email pattern: no quotes, spaces or consecutive dots; a dotted domain with a 2+ letter TLD. */
const EMAIL = /^(?!.*\.\.)[\w!#$%&'*+/=?^`{|}~-](?:[\w.!#$%&'*+/=?^`{|}~-]*[\w!#$%&'*+/=?^`{|}~-])?@[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*\.[a-z]{2,}$/i

export const PASSWORD_MIN_LENGTH = 3

export function normalizeEmail(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value.toLowerCase().trim() : null
}

export function emailError(value: unknown): FieldError | null {
  if (value === undefined || value === null || value === '') return { message: MESSAGES.required, path: 'email' }
  if (typeof value !== 'string' || value.length > 254 || !EMAIL.test(value.trim())) return { message: MESSAGES.emailAddress, path: 'email' }
  return null
}

export function passwordError(value: unknown): FieldError | null {
  if (typeof value === 'string' && value.length > 0 && value.length < PASSWORD_MIN_LENGTH) return { message: MESSAGES.longerThanMin(PASSWORD_MIN_LENGTH), path: 'password' }
  if (typeof value !== 'string' || value === '') return { message: MESSAGES.required, path: 'password' }
  return null
}

/**
 * Errors of the auth operations: classes with a status, as Payload's (`packages/payload/src/errors/`). Every
 * transport turns them into its own shape: REST with `formatErrors`, GraphQL with `extensions`, the local API by
 * throwing them as they are.
 */
import { MESSAGES } from './messages.js'

export class APIError<Data extends object | null = Record<string, unknown> | null> extends Error {
  readonly status: number
  readonly data: Data
  constructor(message: string, status = 500, data: Data = null as Data) {
    super(message)
    this.name = new.target.name
    this.status = status
    this.data = data
  }
}

export class AuthenticationError extends APIError {
  constructor() { super(MESSAGES.emailOrPasswordIncorrect, 401) }
}

export class LockedAuth extends APIError {
  constructor() { super(MESSAGES.userLocked, 401) }
}

export class UnverifiedEmail extends APIError {
  constructor() { super(MESSAGES.unverifiedEmail, 403) }
}

export class Forbidden extends APIError {
  constructor() { super(MESSAGES.notAllowedToPerformAction, 403) }
}

export class NotFound extends APIError {
  constructor() { super(MESSAGES.notFound, 404) }
}

export interface FieldError {
  message: string
  path: string
}

export class ValidationError extends APIError<{ collection: string; errors: FieldError[] }> {
  constructor(collection: string, errors: FieldError[]) {
    super(`${MESSAGES.followingFieldsInvalid(errors.length)} ${errors.map((e) => e.path).join(', ')}`, 400, { collection, errors })
  }
}

export interface ErrorBody {
  errors: ({ message: string } | { name: string; data: object; message: string })[]
}

/**
 * Payload's `formatErrors` and `routeError`: errors with data carry their name and data, others only their
 * message; a 500 (anything not an `APIError` below 500) says only "Something went wrong." so nothing internal
 * leaks.
 */
export function formatErrors(err: unknown): { status: number; body: ErrorBody } {
  if (!(err instanceof APIError) || err.status >= 500) {
    return { status: err instanceof APIError ? err.status : 500, body: { errors: [{ message: MESSAGES.somethingWentWrong }] } }
  }
  if (err.data !== null) return { status: err.status, body: { errors: [{ name: err.name, data: err.data, message: err.message }] } }
  return { status: err.status, body: { errors: [{ message: err.message }] } }
}

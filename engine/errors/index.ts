import { describeCode, type ErrorCode, type ErrorType } from './codes.js'

export { describeCode, type ErrorCode, type ErrorType } from './codes.js'

/** The error object exactly as it is serialized, in Meilisearch's key order. */
export interface ErrorObject {
  message: string
  code: string
  type: ErrorType
  link: string
}

/**
 * An error with a code from the table. Thrown anywhere in the engine or the front end; the HTTP layer turns it
 * into a response and the scheduler into `task.error`.
 */
export class TesseraError extends Error {
  readonly code: ErrorCode
  constructor(code: ErrorCode, message: string) {
    super(message)
    this.code = code
  }
  get status(): number {
    return describeCode(this.code).status
  }
  toJSON(): ErrorObject {
    return errorObject(this.code, this.message)
  }
}

export function errorObject(code: ErrorCode, message: string): ErrorObject {
  return { message, code, type: describeCode(code).type, link: `https://docs.meilisearch.com/errors#${code}` }
}

/** Any thrown value as an error object: unknown failures become `internal` without leaking stack traces. */
export function toErrorObject(err: unknown): ErrorObject {
  if (err instanceof TesseraError) return err.toJSON()
  const message = err instanceof Error ? err.message : String(err)
  const code = (err as { code?: string })?.code
  if (code === 'ENOSPC') return errorObject('no_space_left_on_device', 'No space left on device.')
  if (code === 'EMFILE') return errorObject('too_many_open_files', 'Too many open files.')
  return errorObject('internal', message)
}

export const indexNotFound = (uid: string) => new TesseraError('index_not_found', `Index \`${uid}\` not found.`)
export const indexAlreadyExists = (uid: string) => new TesseraError('index_already_exists', `Index \`${uid}\` already exists.`)

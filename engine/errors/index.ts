import { randomBytes } from 'node:crypto'
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
  /** A status other than the code's own, where Meilisearch answers one (`index_not_found` inside a multi-search: 400). */
  private readonly statusOverride: number | undefined
  constructor(code: ErrorCode, message: string, status?: number) {
    super(message)
    this.code = code
    this.statusOverride = status
  }
  get status(): number {
    return this.statusOverride ?? describeCode(this.code).status
  }
  toJSON(): ErrorObject {
    return errorObject(this.code, this.message)
  }
}

export function errorObject(code: ErrorCode, message: string): ErrorObject {
  return { message, code, type: describeCode(code).type, link: `https://docs.meilisearch.com/errors#${code}` }
}

/**
 * Any thrown value as an error object. A failure that is not a TesseraError (the file system, RocksDB, a bug) says
 * nothing of its cause to the client: its details go to the log under a short reference that the message quotes,
 * so an operator can find them and a client learns nothing of the server's internals.
 */
export function toErrorObject(err: unknown, log?: (line: string) => void): ErrorObject {
  if (err instanceof TesseraError) return err.toJSON()
  const code = (err as { code?: string })?.code
  // RocksDB reports a full disk as an `IO error: No space left on device: ...` message, without an errno code.
  if (code === 'ENOSPC' || /No space left on device/.test((err as Error)?.message ?? '')) return errorObject('no_space_left_on_device', 'No space left on device.')
  if (code === 'EMFILE') return errorObject('too_many_open_files', 'Too many open files.')
  const reference = randomBytes(4).toString('hex')
  log?.(`internal error ${reference}: ${err instanceof Error ? err.stack ?? err.message : String(err)}`)
  return errorObject('internal', `An internal error occurred (reference \`${reference}\`); its details are in the server's log.`)
}

/** The HTTP status of any thrown value (see `toErrorObject`). */
export function statusOf(err: unknown, body: ErrorObject): number {
  return err instanceof TesseraError ? err.status : describeCode(body.code).status
}

export const indexNotFound = (uid: string) => new TesseraError('index_not_found', `Index \`${uid}\` not found.`)
export const indexAlreadyExists = (uid: string) => new TesseraError('index_already_exists', `Index \`${uid}\` already exists.`)

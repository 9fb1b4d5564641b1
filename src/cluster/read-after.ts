/** Cluster mode's read-your-writes header: `X-Tessera-After-Task: <task uid>` (a whole number). */
import { TesseraError } from '../../engine/index.js'
import type { Request } from '../http/types.js'

export const READ_AFTER_HEADER = 'x-tessera-after-task'

/** The task uid a request names, or null when it names none; `invalid_header_value` when it is not a task uid. */
export function readAfterTask(req: Request): number | null {
  const value = req.headers.get(READ_AFTER_HEADER)
  if (value === null || value === undefined) return null
  const text = value.trim()
  const uid = Number(text)
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(uid) || uid > 0xffffffff) {
    throw new TesseraError('invalid_header_value', `The \`X-Tessera-After-Task\` header must be a task uid (a whole number), not \`${value}\`.`)
  }
  return uid
}

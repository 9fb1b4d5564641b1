/** Run an access function for an operation (Payload's `executeAccess`): a falsy answer is a 403. */
import type { AccessArgs, AccessFunction, AccessResult } from '../config/types.js'
import { Forbidden } from '../errors.js'

export async function executeAccess(access: AccessFunction, args: AccessArgs): Promise<AccessResult> {
  const result = await access(args)
  if (!result) throw new Forbidden()
  return result
}

/** A `Where` to filter by, or null when the answer was a plain `true`. */
export function whereOf(result: AccessResult): Exclude<AccessResult, boolean> | null {
  return typeof result === 'object' && result !== null ? result : null
}

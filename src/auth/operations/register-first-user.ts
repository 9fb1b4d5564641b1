/**
 * First user (Payload's `registerFirstUserOperation`): only while the collection is empty — one registration at
 * a time, so two racing requests cannot both be first — create the user bypassing access, mark it verified,
 * and log it in.
 */
import { Forbidden } from '../errors.js'
import { createOperation } from './create.js'
import { loginOperation, type LoginResult } from './login.js'
import type { OperationArgs } from './types.js'

export function registerFirstUserOperation(args: OperationArgs & { data: Record<string, unknown> }): Promise<LoginResult> {
  const { auth, collection } = args
  return auth.firstUserLock.run(collection.slug, async () => {
    if (!(await auth.users.isEmpty(collection.slug))) throw new Forbidden()
    const data = typeof args.data === 'object' && args.data !== null ? args.data : {}
    const created = await createOperation({ ...args, data: { ...data, _verified: true }, overrideAccess: true, disableVerificationEmail: true })
    const { exp, token } = await loginOperation({ ...args, data })
    return { exp, token, user: { ...created, collection: collection.slug, _strategy: 'local-jwt' } }
  })
}

/** Init (Payload's `initOperation`): whether the collection has a user yet (the admin panel's first-user check). */
import type { OperationArgs } from './types.js'

export async function initOperation({ auth, collection }: OperationArgs): Promise<boolean> {
  return !(await auth.users.isEmpty(collection.slug))
}

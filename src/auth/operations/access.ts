/**
 * Access (Payload's `accessOperation` and `docAccessOperation`): what the requesting user may do, per
 * collection and global, sanitized (allowed → true, denied → left out, `Where` kept); for one document, whether
 * the user may act on that document.
 */
import { entityPermissions } from '../access/permissions.js'
import { sanitizePermissions, type SanitizedEntity, type SanitizedPermissions } from '../access/sanitize.js'
import type { SanitizedGlobal } from '../config/types.js'
import type { AuthCollection, AuthService } from '../service.js'
import { userView } from '../user-view.js'
import { matchesWhere } from '../where.js'
import type { OperationRequest } from './types.js'

function collectionOperations(collection: AuthCollection): string[] {
  const operations = ['create', 'read', 'update', 'delete']
  if (collection.auth.maxLoginAttempts > 0) operations.push('unlock')
  return operations
}

async function canAccessAdmin(auth: AuthService, req: OperationRequest): Promise<boolean> {
  const user = req.user
  if (!user || user.collection !== auth.config.adminCollection) return false
  const admin = auth.collection(user.collection)!.access.admin
  return admin ? Boolean(await admin({ req: { user } })) : true
}

export async function accessOperation({ auth, req }: { auth: AuthService; req: OperationRequest }): Promise<SanitizedPermissions> {
  const args = { req: { user: req.user } }
  const collections = Object.fromEntries(await Promise.all(auth.collections.map(async (c) =>
    [c.slug, await entityPermissions({ access: c.access, operations: collectionOperations(c), fields: c.fields, args })] as const)))
  const globals = Object.fromEntries(await Promise.all(auth.config.globals.map(async (g) =>
    [g.slug, await entityPermissions({ access: g.access, operations: ['read', 'update'], fields: g.fields, args })] as const)))
  return sanitizePermissions({ canAccessAdmin: await canAccessAdmin(auth, req), collections, globals })
}

/** Without `id`: the collection's permissions with `Where` answers kept (Payload's doc access for a new document). */
export async function docAccessOperation({ auth, collection, req, id }: { auth: AuthService; collection: AuthCollection; req: OperationRequest; id?: string }): Promise<SanitizedEntity> {
  const record = id !== undefined ? auth.users.get(collection.slug, id) : null
  const doc = record ? userView(collection, record, auth.secret, { viewer: null, overrideAccess: true }) : null
  const permissions = await entityPermissions({
    access: collection.access, operations: collectionOperations(collection), fields: collection.fields,
    args: { req: { user: req.user }, id },
    matches: id === undefined ? undefined : (where) => doc !== null && matchesWhere(doc, where),
  })
  return sanitizePermissions({ collections: { [collection.slug]: permissions } }).collections?.[collection.slug] ?? { fields: {} }
}

/** A global is one document that always exists: a `Where` answer allows it. */
export async function globalAccessOperation({ global, req }: { global: SanitizedGlobal; req: OperationRequest }): Promise<SanitizedEntity> {
  const permissions = await entityPermissions({ access: global.access, operations: ['read', 'update'], fields: global.fields, args: { req: { user: req.user } }, matches: () => true })
  return sanitizePermissions({ globals: { [global.slug]: permissions } }).globals?.[global.slug] ?? { fields: {} }
}

/**
 * Permissions of one collection or global (Payload's `getEntityPolicies`): every operation's access function
 * run for the user, and every field's create/read/update, which follow the entity's answer unless the field
 * has its own access. A `Where` answer is kept as `{permission: true, where}` for the whole collection; for one
 * document it becomes whether that document matches.
 */
import type { AccessArgs, AccessFunction, AccessResult, Where } from '../config/types.js'
import type { AuthField } from '../fields.js'

export interface Permission {
  permission: boolean
  where?: Where
}

export type FieldPermissions = Record<string, Partial<Record<'create' | 'read' | 'update', Permission>>>

/** Payload's shape: `fields` first, then one entry per operation. */
export interface EntityPermissions {
  fields: FieldPermissions
  [operation: string]: Permission | FieldPermissions
}

export interface EntityPermissionsArgs {
  access: Partial<Record<string, AccessFunction>>
  operations: string[]
  fields: { name: string; access?: AuthField['access'] }[]
  args: AccessArgs
  /** For one document: whether it matches a `Where` (absent: keep the `Where`). */
  matches?: (where: Where) => boolean
}

const FIELD_OPERATIONS = ['create', 'read', 'update'] as const

export async function entityPermissions({ access, operations, fields, args, matches }: EntityPermissionsArgs): Promise<EntityPermissions> {
  const result: EntityPermissions = { fields: {} }
  const entity: Record<string, Permission> = {}
  for (const operation of operations) {
    const fn = access[operation]
    const answer: AccessResult = fn ? await fn(args) : args.req.user !== null
    entity[operation] = typeof answer === 'object' && answer !== null
      ? { permission: matches ? matches(answer) : true, where: answer }
      : { permission: Boolean(answer) }
    result[operation] = entity[operation]
  }
  for (const field of fields) {
    const perms: FieldPermissions[string] = {}
    for (const operation of FIELD_OPERATIONS) {
      if (!operations.includes(operation)) continue
      const fn = field.access?.[operation]
      perms[operation] = { permission: fn ? Boolean(await fn(args)) : entity[operation]!.permission }
    }
    result.fields[field.name] = perms
  }
  return result
}

/**
 * The GraphQL permission types promise `{permission: Boolean!}` for every operation and field, but the
 * operations answer sanitized permissions (`true`, or nothing for denied). This turns one back into the other so
 * that `Access { users { read { permission } } }` answers `false` for a denial instead of a null error.
 */
import type { SanitizedEntity } from '../access/sanitize.js'
import type { Permission } from '../access/permissions.js'

const FIELD_OPERATIONS = ['create', 'read', 'update']

function expand(value: unknown): Permission {
  if (value === true) return { permission: true }
  if (typeof value === 'object' && value !== null && typeof (value as Permission).permission === 'boolean') return value as Permission
  return { permission: false }
}

export function expandEntity(entity: SanitizedEntity | undefined, operations: string[], fieldNames: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const operation of operations) out[operation] = expand(entity?.[operation])
  const fields = entity?.fields
  out.fields = Object.fromEntries(fieldNames.map((name) => {
    const field = fields === true ? true : (fields as Record<string, unknown> | undefined)?.[name]
    return [name, Object.fromEntries(FIELD_OPERATIONS.map((op) => [op, field === true ? { permission: true } : expand((field as Record<string, unknown> | undefined)?.[op])]))]
  }))
  return out
}

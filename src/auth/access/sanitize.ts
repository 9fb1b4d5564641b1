/**
 * Payload's `sanitizePermissions`: `{permission: true}` becomes `true`, a denied operation is dropped, a `Where`
 * stays as `{permission: true, where}`, a field whose operations are all allowed becomes `true` and so does a
 * `fields` map whose fields all are; `canAccessAdmin: false` is dropped and empty objects are removed.
 */
import type { EntityPermissions, Permission } from './permissions.js'

export type SanitizedEntry = true | Permission
export type SanitizedEntity = { [key: string]: SanitizedEntry | SanitizedFields }
export type SanitizedFields = true | { [field: string]: true | { [operation: string]: SanitizedEntry } }

export interface SanitizedPermissions {
  canAccessAdmin?: true
  collections?: Record<string, SanitizedEntity>
  globals?: Record<string, SanitizedEntity>
}

const isPermission = (v: unknown): v is Permission => typeof v === 'object' && v !== null && typeof (v as Permission).permission === 'boolean'

/** Collapse the operations of one object in place; true when every one of them is allowed without a Where. */
function collapseOperations(target: Record<string, unknown>): boolean {
  let all = true
  for (const [key, value] of Object.entries(target)) {
    if (key === 'fields') continue
    if (isPermission(value)) {
      if (value.permission && value.where === undefined) target[key] = true
      else if (value.permission) all = false
      else { all = false; delete target[key] }
    } else if (value !== true) {
      all = false
    }
  }
  return all
}

function sanitizeEntity(entity: EntityPermissions): SanitizedEntity {
  const out = entity as unknown as Record<string, unknown>
  const fields = out.fields as Record<string, Record<string, unknown>> | undefined
  if (fields) {
    let allFields = true
    for (const [name, perms] of Object.entries(fields)) {
      if (collapseOperations(perms)) fields[name] = true as unknown as Record<string, unknown>
      else allFields = false
    }
    if (allFields) out.fields = true
  }
  collapseOperations(out)
  return out as SanitizedEntity
}

/** Remove empty objects (after the collapse) without descending into `where` constraints. */
function removeEmpty(value: Record<string, unknown>): void {
  for (const [key, child] of Object.entries(value)) {
    if (key === 'where') continue
    if (child === null || child === undefined) delete value[key]
    else if (typeof child === 'object') {
      removeEmpty(child as Record<string, unknown>)
      if (Object.keys(child).length === 0) delete value[key]
    }
  }
}

export function sanitizePermissions(input: {
  canAccessAdmin?: boolean
  collections?: Record<string, EntityPermissions>
  globals?: Record<string, EntityPermissions>
}): SanitizedPermissions {
  const out: Record<string, unknown> = {}
  if (input.canAccessAdmin) out.canAccessAdmin = true
  if (input.collections) out.collections = Object.fromEntries(Object.entries(input.collections).map(([k, v]) => [k, sanitizeEntity(v)]))
  if (input.globals) out.globals = Object.fromEntries(Object.entries(input.globals).map(([k, v]) => [k, sanitizeEntity(v)]))
  removeEmpty(out)
  return out as SanitizedPermissions
}

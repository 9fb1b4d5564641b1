/**
 * Evaluate a Payload `Where` against one document: what an access function's constraint means for a given user
 * (doc access, find) and what the local API's `find` filters by. Operators: equals, not_equals, in, not_in,
 * exists, greater_than(_equal), less_than(_equal), like (every word, case-insensitive), contains; `and` / `or`;
 * dotted paths reach into nested objects.
 */
import type { Where, WhereCondition } from './config/types.js'

export function matchesWhere(doc: Record<string, unknown>, where: Where | undefined): boolean {
  if (!where || typeof where !== 'object') return true
  for (const [field, condition] of Object.entries(where)) {
    if (condition === undefined) continue
    if (field === 'and') {
      if (!Array.isArray(condition) || !condition.every((w) => matchesWhere(doc, w))) return false
    } else if (field === 'or') {
      if (!Array.isArray(condition) || !condition.some((w) => matchesWhere(doc, w))) return false
    } else if (!matchesCondition(valueAt(doc, field), condition as WhereCondition)) {
      return false
    }
  }
  return true
}

function valueAt(doc: Record<string, unknown>, path: string): unknown {
  let value: unknown = doc
  for (const part of path.split('.')) {
    if (value === null || typeof value !== 'object') return undefined
    value = (value as Record<string, unknown>)[part]
  }
  return value
}

function same(a: unknown, b: unknown): boolean {
  if (Array.isArray(a)) return a.some((item) => same(item, b))
  if (a === b) return true
  // Ids and numbers arrive as strings in query strings and as numbers in documents.
  return (typeof a === 'number' || typeof a === 'string') && (typeof b === 'number' || typeof b === 'string') && String(a) === String(b)
}

function compare(a: unknown, b: unknown): number | null {
  if (typeof a === 'number' && typeof b === 'number') return a - b
  if (typeof a === 'string' && typeof b === 'string') {
    const da = Date.parse(a), db = Date.parse(b)
    if (Number.isFinite(da) && Number.isFinite(db)) return da - db
    return a < b ? -1 : a > b ? 1 : 0
  }
  return null
}

function matchesCondition(value: unknown, condition: WhereCondition): boolean {
  if (condition === null || typeof condition !== 'object') return false
  for (const [operator, operand] of Object.entries(condition)) {
    let ok: boolean
    switch (operator) {
      case 'equals': ok = operand === null ? value === null || value === undefined : same(value, operand); break
      case 'not_equals': ok = operand === null ? value !== null && value !== undefined : !same(value, operand); break
      case 'in': ok = Array.isArray(operand) && operand.some((o) => same(value, o)); break
      case 'not_in': ok = Array.isArray(operand) && !operand.some((o) => same(value, o)); break
      case 'exists': ok = (value !== undefined && value !== null) === (operand === true || operand === 'true'); break
      case 'greater_than': { const c = compare(value, operand); ok = c !== null && c > 0; break }
      case 'greater_than_equal': { const c = compare(value, operand); ok = c !== null && c >= 0; break }
      case 'less_than': { const c = compare(value, operand); ok = c !== null && c < 0; break }
      case 'less_than_equal': { const c = compare(value, operand); ok = c !== null && c <= 0; break }
      case 'like': ok = typeof value === 'string' && typeof operand === 'string' && operand.toLowerCase().split(/\s+/).every((w) => value.toLowerCase().includes(w)); break
      case 'contains': ok = typeof value === 'string' && typeof operand === 'string' && value.toLowerCase().includes(operand.toLowerCase()); break
      default: ok = false
    }
    if (!ok) return false
  }
  return true
}

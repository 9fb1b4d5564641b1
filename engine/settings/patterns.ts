/**
 * Attribute patterns of the settings (`filterableAttributes`, `localizedAttributes`, ...), matched as milli's
 * `match_pattern` does: `*` matches everything, `*x*` a field containing x, `*x` one ending with x, `x*` one
 * starting with x, otherwise the exact (dotted) field name.
 */
export function matchAttributePattern(pattern: string, field: string): boolean {
  if (pattern === '*') return true
  if (pattern.length >= 2 && pattern.startsWith('*') && pattern.endsWith('*')) return field.includes(pattern.slice(1, -1))
  if (pattern.startsWith('*')) return field.endsWith(pattern.slice(1))
  if (pattern.endsWith('*')) return field.startsWith(pattern.slice(0, -1))
  return pattern === field
}

/**
 * A tenant token's `searchRules` (`SearchRules` in `meilisearch-auth/src/lib.rs`): either a list of index
 * patterns, or an object from pattern to a rule (`null`, `{}` or `{"filter": ...}`). They narrow the key the token
 * was signed with: an index must be allowed by both, and a search on it gets the rule's filter ANDed with its own.
 * When several patterns match an index, the most specific rule wins: an exact uid over a pattern, then the longest.
 */
import { matchesIndex } from './index-pattern.js'

export interface SearchRules {
  /** Each pattern with its rule's filter (`undefined`: no filter). A list form has no filters. */
  readonly rules: readonly { pattern: string; filter: unknown }[]
}

export function isIndexAuthorizedBy(rules: SearchRules, uid: string): boolean {
  return rules.rules.some((r) => r.pattern === '*' || matchesIndex(r.pattern, uid))
}

export function allowsAllIndexes(rules: SearchRules): boolean {
  return rules.rules.some((r) => r.pattern === '*')
}

/** The patterns, sorted, as the error messages list them. */
export function rulePatterns(rules: SearchRules): string[] {
  return rules.rules.map((r) => r.pattern).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
}

/** The filter of the most specific rule matching `uid`, or undefined. */
export function ruleFilter(rules: SearchRules, uid: string): unknown {
  let best: { pattern: string; filter: unknown } | undefined
  for (const r of rules.rules) {
    if (!matchesIndex(r.pattern, uid)) continue
    if (best === undefined || specificity(r.pattern) > specificity(best.pattern)) best = r
  }
  return best?.filter
}

/** Exact patterns first, then the longest: `(is_exact, len)` compared as Meilisearch does. */
function specificity(pattern: string): number {
  return (pattern.endsWith('*') ? 0 : 1e9) + Buffer.byteLength(pattern)
}

/**
 * A search's filter with a rule's filter ANDed to it (Meilisearch's `fuse_filters`): both become the outer, AND,
 * level of the array form, so an array filter keeps its own OR groups.
 */
export function fuseFilters(filter: unknown, ruleFilterValue: unknown): unknown {
  if (ruleFilterValue === undefined || ruleFilterValue === null) return filter
  if (filter === undefined || filter === null) return ruleFilterValue
  const left = Array.isArray(filter) ? filter : [filter]
  const right = Array.isArray(ruleFilterValue) ? ruleFilterValue : [ruleFilterValue]
  return [...left, ...right]
}

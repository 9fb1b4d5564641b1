/**
 * Index uid patterns of keys and tenant tokens (`crates/meilisearch-types/src/index_uid_pattern.rs`): a valid
 * index uid, optionally ending with `*`, or `*` alone. `products*` matches every uid starting with `products`;
 * a pattern without a star matches that uid only.
 */
import { isValidIndexUid } from '../api/index-uid.js'

/** The message of an invalid pattern; Meilisearch quotes the part before the star when there is one. */
export function indexPatternMessage(pattern: string): string | null {
  const prefix = pattern.endsWith('*') ? pattern.slice(0, -1) : pattern
  if (pattern === '*' || isValidIndexUid(prefix)) return null
  return `\`${prefix}\` is not a valid index uid pattern. Index uid patterns can be an integer or a string containing only alphanumeric characters, hyphens (-), underscores (_), and optionally end with a star (*).`
}

export function matchesIndex(pattern: string, uid: string): boolean {
  return pattern.endsWith('*') ? uid.startsWith(pattern.slice(0, -1)) : pattern === uid
}

/** Whether any of the patterns lets `uid` through. */
export function anyMatches(patterns: Iterable<string>, uid: string): boolean {
  for (const p of patterns) if (matchesIndex(p, uid)) return true
  return false
}

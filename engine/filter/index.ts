/**
 * The filter expression engine shared by the document routes (fetch, delete by filter), search and facets:
 *
 * - `parseFilter(input, code)`: a filter as users send it (a string, or an array whose items are ANDed and whose
 *   inner arrays are ORed) into an AST, or null when there is no filter. Errors are Meilisearch's, word for word,
 *   with the error code the caller passes (`invalid_document_filter`, `invalid_search_filter`, ...).
 * - `checkFilterable(expr, filterableAttributes, code, {containsFilter})`: the checks against the index settings
 *   and experimental features.
 * - `matches(expr, doc)`: evaluation against one document.
 *
 * The AST (ast.ts) is plain data so a bitmap evaluator over facet indexes can walk the same tree.
 */
import { TesseraError, type ErrorCode } from '../errors/index.js'
import type { FilterExpression } from './ast.js'
import { formatParseError } from './errors.js'
import { parseFilterString } from './parser.js'

export type { FilterExpression, Token, Condition, ComparisonOp, VectorSelector } from './ast.js'
export { badLatitude, badLongitude, formatRustF64, checkFilterable, checkFilterFeatures, containsKeyword, filterFields, notFilterableMessage, operatorNotAllowedMessage, type CheckOptions } from './check.js'
export { matches, attributeValues, normalizeFacet, foldDiacritics, parseFiniteFloat, geoPoint, distanceMeters, geoMatches, addLeaf, prep, isEmptyValue, compareCodePoints, type Facets, type GeoExpression } from './evaluate.js'
export { normalizeRules, matchingRule, isFacetedBy, isFilterable, filterablePatterns, patternsOf, isGeoFilteringEnabled, type FilterRule } from './rules.js'
export { MAX_FILTER_DEPTH } from './parser.js'

/** A filter as users send it: a string, or an array (outer AND) of strings and arrays of strings (inner OR). */
export type FilterInput = string | (string | string[])[]

/** The filterableAttributes setting, as stored (strings or pattern objects). */
export type FilterableRules = unknown[]

/** serde_json's compact rendering of a JSON value (what Meilisearch prints as `found: ...`). */
function renderJson(value: unknown): string {
  return JSON.stringify(value) ?? 'null'
}

function invalidSyntax(expected: string[], found: unknown, code: ErrorCode): TesseraError {
  return new TesseraError(code, `Invalid syntax for the filter parameter: \`expected ${expected.join(', ')}, found: ${renderJson(found)}\`.`)
}

function parseOne(src: string, code: ErrorCode): FilterExpression | null {
  const r = parseFilterString(src)
  if ('error' in r) throw new TesseraError(code, formatParseError(r.error))
  return r.expr
}

/**
 * Parse a filter; null when there is none (`null`, a blank string, an empty array, or an array of blank strings).
 * Throws TesseraError(code) with Meilisearch's message for a bad filter.
 */
export function parseFilter(input: unknown, code: ErrorCode): FilterExpression | null {
  if (input === null || input === undefined) return null
  if (typeof input === 'string') return parseOne(input, code)
  if (!Array.isArray(input)) throw invalidSyntax(['String', 'Array'], input, code)

  // Types are checked for the whole array before any string is parsed.
  for (const item of input) {
    if (typeof item === 'string') continue
    if (Array.isArray(item)) {
      for (const inner of item) if (typeof inner !== 'string') throw invalidSyntax(['String'], inner, code)
      continue
    }
    throw invalidSyntax(['String', '[String]'], item, code)
  }

  const ands: FilterExpression[] = []
  for (const item of input as (string | string[])[]) {
    if (typeof item === 'string') {
      const expr = parseOne(item, code)
      if (expr) ands.push(expr)
      continue
    }
    const ors: FilterExpression[] = []
    for (const rule of item) {
      const expr = parseOne(rule, code)
      if (expr) ors.push(expr)
    }
    if (ors.length === 1) ands.push(ors[0]!)
    else if (ors.length > 1) ands.push({ type: 'or', children: ors })
  }
  if (ands.length === 0) return null
  return ands.length === 1 ? ands[0]! : { type: 'and', children: ands }
}

/**
 * STUB — to be replaced by the filter helper. Contract: the filter expression engine shared by document routes
 * (issue 3) and search (issues 4–5).
 */
import type { ErrorCode } from '../errors/index.js'

/** A filter as users send it: a string, or an array (outer AND) of strings and arrays of strings (inner OR). */
export type FilterInput = string | (string | string[])[]

export type FilterExpression = unknown

/** Parse; null for an empty filter. Throws TesseraError(code) with Meilisearch's message for a bad filter. */
export function parseFilter(input: unknown, code: ErrorCode): FilterExpression | null {
  void input; void code
  throw new Error('not implemented')
}

/** The filterableAttributes setting, as stored (strings or pattern objects). */
export type FilterableRules = unknown[]

/** Throws TesseraError(code) when the expression uses an attribute or operator the rules do not allow. */
export function checkFilterable(expr: FilterExpression, rules: FilterableRules, code: ErrorCode, options: { containsFilter: boolean }): void {
  void expr; void rules; void code; void options
  throw new Error('not implemented')
}

/** Whether a document matches. */
export function matches(expr: FilterExpression, doc: Record<string, unknown>): boolean {
  void expr; void doc
  throw new Error('not implemented')
}

/**
 * The cost components of one document for the query's kept terms, as `Matcher.measure` writes them into a reusable
 * `Int32Array` (no allocation per document): what every keyword rule derives its cost, rank and details from.
 */

/** Query words dropped by the words rule's bucket (the matching strategy). */
export const C_SKIPPED = 0
/** The sum over kept terms of their cheapest derivation's typos, and the most it could be. */
export const C_TYPO = 1
export const C_TYPO_MAX = 2
/** The sum over adjacent kept-term pairs of their distance cost (0–3 each), and the most it could be (3 per pair). */
export const C_PROX = 3
export const C_PROX_MAX = 4
/** The sum over kept terms of the weight of the best field holding them, and the most it could be. */
export const C_FID = 5
export const C_FID_MAX = 6
/** The sum over kept terms of their best position cost, and the most it could be. */
export const C_POS = 7
export const C_POS_MAX = 8
/** EXACT_MATCH, MATCHES_START or NO_EXACT_MATCH. */
export const C_EXACT_TYPE = 9
/** Kept query words not found as their own word, and the kept words' count. */
export const C_MISSING = 10
export const C_WORDS_MAX = 11
export const COMPONENTS = 12

/** A field equal to the query. */
export const EXACT_MATCH = 3
/** A field starting with the query. */
export const MATCHES_START = 2
export const NO_EXACT_MATCH = 1

export type Components = Int32Array

/**
 * The filter AST. It is deliberately plain data (no methods, no closures) so that the same tree can be checked
 * against the settings, evaluated document by document (`matches`), and later evaluated over facet bitmaps.
 *
 * Every token keeps where it came from (`src`, `start`, `end`: UTF-16 offsets into the filter string it was parsed
 * from), because Meilisearch's errors quote the offending token's position (`1:4 dog = "bernese mountain"`).
 * In the array form each string is parsed on its own, so tokens of one tree may point into different strings.
 */

export interface Token {
  /** The value after unescaping (quotes removed, `\'`, `\"`, `\n`, `\u{..}` ... resolved). */
  value: string
  /** The filter string this token was read from. */
  src: string
  /** Start and end (exclusive) of the token's raw text in `src` (inside the quotes for a quoted value). */
  start: number
  end: number
}

export type ComparisonOp = '=' | '!=' | '>' | '>=' | '<' | '<='

/** The operator of a condition on one attribute. `IS NOT NULL`, `NOT EXISTS`, ... are a `not` around these. */
export type Condition =
  | { op: ComparisonOp; value: Token }
  | { op: 'TO'; from: Token; to: Token }
  | { op: 'EXISTS' }
  | { op: 'IS NULL' }
  | { op: 'IS EMPTY' }
  /** `keyword` is the `CONTAINS` / `STARTS WITH` token itself (the feature error points at it). */
  | { op: 'CONTAINS'; keyword: Token; value: Token }
  | { op: 'STARTS WITH'; keyword: Token; value: Token }

export type VectorSelector =
  | { kind: 'all' }
  | { kind: 'userProvided' }
  | { kind: 'documentTemplate' }
  | { kind: 'regenerate' }
  | { kind: 'fragment'; fragment: Token }

export type FilterExpression =
  | { type: 'and'; children: FilterExpression[] }
  | { type: 'or'; children: FilterExpression[] }
  | { type: 'not'; child: FilterExpression }
  | { type: 'condition'; field: Token; condition: Condition }
  /** `field IN [a, b]`; `NOT IN` is a `not` around it. */
  | { type: 'in'; field: Token; values: Token[] }
  /** `_geoRadius(lat, lng, radius[, resolution])`. */
  | { type: 'geoRadius'; lat: Token; lng: Token; radius: Token; resolution: Token | null }
  /** `_geoBoundingBox([topRightLat, topRightLng], [bottomLeftLat, bottomLeftLng])`. */
  | { type: 'geoBoundingBox'; topRight: [Token, Token]; bottomLeft: [Token, Token] }
  /** `_geoPolygon([lat, lng], [lat, lng], [lat, lng], ...)`. */
  | { type: 'geoPolygon'; points: [Token, Token][] }
  /** `_vectors[.embedder[.userProvided|.documentTemplate|.regenerate|.fragments.name]] EXISTS`. */
  | { type: 'vectorExists'; field: Token; embedder: Token | null; selector: VectorSelector }

/** The operator name Meilisearch uses in its messages (`Condition::operator()`). */
export function operatorName(condition: Condition): string {
  return condition.op
}

/**
 * Static checks of a parsed filter against the index settings, in the order Meilisearch makes them:
 *
 * 1. `CONTAINS` needs the `containsFilter` experimental feature (checked when the filter is parsed; the error is
 *    `feature_not_enabled`, located on the `CONTAINS` keyword).
 * 2. Every attribute must be filterable (milli checks them all before evaluating, visiting the tree from a stack,
 *    so among several the last one of an AND/OR is reported): "Attribute `x` is not filterable. ...".
 * 3. While evaluating, left to right: an operator the matching rule does not allow ("Filter operator `>` is not
 *    allowed ..."; only for attributes the index has seen, as milli skips unknown fields first), geo filters
 *    without `_geo` filterable, and bad coordinates ("Bad latitude ...").
 */
import { TesseraError, type ErrorCode } from '../errors/index.js'
import { FEATURE_ACTIONS, featureNotEnabled } from '../features/index.js'
import type { FilterExpression, Token } from './ast.js'
import { atToken } from './errors.js'
import { isRustFloat, parseFiniteFloat } from './evaluate.js'
import { allowedOperators, filterablePatterns, isFilterableRule, isGeoFilteringEnabled, matchingRule, normalizeRules, type FilterRule } from './rules.js'

export interface CheckOptions {
  /** Whether the `containsFilter` experimental feature is on. */
  containsFilter: boolean
  /**
   * Whether the index has seen this attribute in some document. milli ignores (matches nothing for) attributes
   * it has never seen before it checks operators, so operator errors only concern known attributes. When omitted,
   * every attribute is treated as known.
   */
  fieldExists?: (field: string) => boolean
  /**
   * Whether `_shard` (a document's shard, engine/operations/shard-facet.ts) is filterable without being declared:
   * true by default (reads); false where documents are changed by filter, which do not evaluate it.
   */
  shardField?: boolean
}

/** The first `CONTAINS` keyword of the tree, depth first, left to right (`use_contains_operator`). */
export function containsKeyword(expr: FilterExpression): Token | null {
  switch (expr.type) {
    case 'condition': return expr.condition.op === 'CONTAINS' ? expr.condition.keyword : null
    case 'not': return containsKeyword(expr.child)
    case 'and':
    case 'or':
      for (const c of expr.children) {
        const k = containsKeyword(c)
        if (k) return k
      }
      return null
    default: return null
  }
}

/** The attributes of conditions and IN lists, in milli's `FidIter` order (a stack: last child first). */
export function filterFields(expr: FilterExpression): Token[] {
  const out: Token[] = []
  const stack: FilterExpression[] = [expr]
  while (stack.length > 0) {
    const current = stack.pop()!
    switch (current.type) {
      case 'condition':
      case 'in': out.push(current.field); break
      case 'not': stack.push(current.child); break
      case 'and':
      case 'or': stack.push(...current.children); break
      default: break
    }
  }
  return out
}

const isVectorField = (field: string) => field === '_vectors' || field.startsWith('_vectors.')
/** `_shard`, the shard of a document in the network (engine/network/sharding.ts): filterable without being declared. */
const SHARD_FIELD = '_shard'

export function notFilterableMessage(attribute: string, rules: FilterRule[]): string {
  const patterns = filterablePatterns(rules)
  const tail = patterns.length === 0
    ? ' This index does not have configured filterable attributes.'
    : ` Available filterable attribute patterns are: ${patterns.map((p) => `\`${p}\``).join(', ')}.`
  return `Attribute \`${attribute}\` is not filterable.${tail}`
}

export function operatorNotAllowedMessage(operator: string, field: string, rule: FilterRule): string {
  const hint = ['=', '!=', 'IN'].includes(operator) ? 'equality' : ['<', '>', '<=', '>=', 'TO'].includes(operator) ? 'comparison' : 'the appropriate filter operators'
  const i = rule.index
  return `Filter operator \`${operator}\` is not allowed for the attribute \`${field}\`.\n`
    + `  - Note: allowed operators: ${allowedOperators(rule).join(', ')}.\n`
    + `  - Note: field \`${field}\` matched rule #${i} in \`filterableAttributes\`\n`
    + `  - Hint: enable ${hint} in rule #${i} by modifying the features.filter object\n`
    + `  - Hint: prepend another rule matching \`${field}\` with appropriate filter features before rule #${i}`
}

/** milli's `BadGeoError` messages (filters and geo sort). */
export const badLatitude = (lat: number) => `Bad latitude \`${formatRustF64(lat)}\`. Latitude must be contained between -90 and 90 degrees. `
export const badLongitude = (lng: number) => `Bad longitude \`${formatRustF64(lng)}\`. Longitude must be contained between -180 and 180 degrees. `

/** Rust's `Display` for f64: no exponent notation, shortest round-trip digits. */
export function formatRustF64(n: number): string {
  if (Number.isNaN(n)) return 'NaN'
  if (!Number.isFinite(n)) return n > 0 ? 'inf' : '-inf'
  const s = String(n)
  const m = /^(-?)(\d+)(?:\.(\d+))?e([+-]\d+)$/.exec(s)
  if (!m) return s
  const [, sign, int, frac = '', exp] = m
  const digits = int! + frac
  const point = int!.length + Number(exp)
  if (point <= 0) return `${sign}0.${'0'.repeat(-point)}${digits}`
  if (point >= digits.length) return `${sign}${digits}${'0'.repeat(point - digits.length)}`
  return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`
}

class Checker {
  private readonly geoEnabled: boolean

  constructor(private readonly rules: FilterRule[], private readonly code: ErrorCode, private readonly options: CheckOptions) {
    this.geoEnabled = isGeoFilteringEnabled(rules)
  }

  fail(token: Token, message: string): never {
    throw new TesseraError(this.code, atToken(token, message))
  }

  /** `Token::parse_finite_float` as an error-raising parse. */
  float(token: Token): number {
    const n = parseFiniteFloat(token.value)
    if (n !== null) return n
    if (isRustFloat(token.value)) this.fail(token, 'Non finite floats are not supported')
    return this.fail(token, 'invalid float literal')
  }

  latitude(token: Token): void {
    const lat = this.float(token)
    if (!(lat >= -90 && lat <= 90)) this.fail(token, badLatitude(lat))
  }

  longitude(token: Token): void {
    const lng = this.float(token)
    if (!(lng >= -180 && lng <= 180)) this.fail(token, badLongitude(lng))
  }

  geoNotFilterable(token: Token): never {
    return this.fail(token, notFilterableMessage('_geo', this.rules))
  }

  /** The rule deciding an attribute's operators, or null when milli would not look (unknown attribute). */
  ruleFor(field: string): FilterRule | null {
    if (this.options.fieldExists && !this.options.fieldExists(field)) return null
    return matchingRule(field, this.rules)
  }

  operatorNotAllowed(operator: string, field: string, rule: FilterRule): never {
    throw new TesseraError(this.code, operatorNotAllowedMessage(operator, field, rule))
  }

  walk(expr: FilterExpression): void {
    switch (expr.type) {
      case 'and':
      case 'or':
        for (const c of expr.children) this.walk(c)
        return
      case 'not':
        this.walk(expr.child)
        return
      case 'in': {
        if (expr.field.value === SHARD_FIELD && this.options.shardField !== false) return
        const rule = this.ruleFor(expr.field.value)
        // IN is evaluated as one `=` per value.
        if (rule && expr.values.length > 0 && !rule.equality) this.operatorNotAllowed('=', expr.field.value, rule)
        return
      }
      case 'condition': {
        const field = expr.field.value
        if (isVectorField(field) || (field === SHARD_FIELD && this.options.shardField !== false)) return
        const rule = this.ruleFor(field)
        if (!rule) return
        const op = expr.condition.op
        const allowed = ['>', '>=', '<', '<=', 'TO'].includes(op) ? rule.comparison
          : op === '=' || op === '!=' ? rule.equality
          : op === 'IS EMPTY' || op === 'IS NULL' || op === 'EXISTS' ? isFilterableRule(rule)
          : true
        if (!allowed) this.operatorNotAllowed(op, field, rule)
        return
      }
      case 'geoRadius':
        if (!this.geoEnabled) this.geoNotFilterable(expr.lat)
        this.latitude(expr.lat)
        this.longitude(expr.lng)
        this.float(expr.radius)
        return
      case 'geoBoundingBox': {
        if (!this.geoEnabled) this.geoNotFilterable(expr.topRight[0])
        // milli parses the four numbers first, then checks each range, then the box's orientation.
        const topLat = this.float(expr.topRight[0])
        this.float(expr.topRight[1])
        const bottomLat = this.float(expr.bottomLeft[0])
        this.float(expr.bottomLeft[1])
        this.latitude(expr.topRight[0])
        this.longitude(expr.topRight[1])
        this.latitude(expr.bottomLeft[0])
        this.longitude(expr.bottomLeft[1])
        if (topLat < bottomLat) this.fail(expr.bottomLeft[1], `The top latitude \`${formatRustF64(topLat)}\` is below the bottom latitude \`${formatRustF64(bottomLat)}\`.`)
        return
      }
      case 'geoPolygon':
        if (!this.geoEnabled) this.geoNotFilterable(expr.points[0]![0])
        for (const [lat, lng] of expr.points) {
          this.latitude(lat)
          this.longitude(lng)
        }
        return
      case 'vectorExists':
        return
    }
  }
}

/**
 * The experimental-feature part of the checks, which Meilisearch makes when it parses the filter (synchronously,
 * also for routes that check filterability later in a task): `CONTAINS` needs `containsFilter`.
 */
export function checkFilterFeatures(expr: FilterExpression, options: { containsFilter: boolean }): void {
  const keyword = containsKeyword(expr)
  if (keyword && !options.containsFilter) {
    throw new TesseraError('feature_not_enabled', atToken(keyword, featureNotEnabled('containsFilter', FEATURE_ACTIONS.containsFilter).message))
  }
}

/** Throws TesseraError(code) when the expression uses an attribute or operator the rules do not allow. */
export function checkFilterable(expr: FilterExpression, rawRules: readonly unknown[] | null | undefined, code: ErrorCode, options: CheckOptions): void {
  checkFilterFeatures(expr, options)
  const rules = normalizeRules(rawRules)
  for (const field of filterFields(expr)) {
    if (isVectorField(field.value) || (field.value === SHARD_FIELD && options.shardField !== false)) continue
    const rule = matchingRule(field.value, rules)
    if (rule && isFilterableRule(rule)) continue
    throw new TesseraError(code, atToken(field, notFilterableMessage(field.value, rules)))
  }
  new Checker(rules, code, options).walk(expr)
}

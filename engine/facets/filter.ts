/**
 * Filters evaluated over the facet index, with bitmaps: the same results as `matches` (filter/evaluate.ts) over
 * every live document, which stays the reference (see its comment for the semantics).
 */
import { RoaringBitmap32, type Bitmap } from '../inverted/index.js'
import { compareCodePoints, geoMatches, prep, type FilterExpression, type Token } from '../filter/index.js'
import type { Condition } from '../filter/ast.js'
import type { FacetIndex, FieldFacets } from './index.js'

const EMPTY: Bitmap = new RoaringBitmap32()

/** The first index in sorted `keys` whose key is not below `value` (or above it, when `strict`). */
function lowerBound<T>(keys: ArrayLike<T>, value: T, cmp: (a: T, b: T) => number, strict: boolean): number {
  let lo = 0
  let hi = keys.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    const c = cmp(keys[mid]!, value)
    if (c < 0 || (strict && c === 0)) lo = mid + 1
    else hi = mid
  }
  return lo
}

const numCmp = (a: number, b: number) => a - b

function equal(f: FieldFacets, token: Token): Bitmap {
  const p = prep(token)
  const s = f.strings.get(p.normalized)?.docids
  const n = p.number === null ? undefined : f.numbers.get(p.number)
  if (s && n) return RoaringBitmap32.or(s, n)
  return s ?? n ?? EMPTY
}

/** `>`, `>=`, `<`, `<=`, `TO`: numbers in range when the bounds are numbers, and strings in range. */
function range(f: FieldFacets, low: Token | null, lowInclusive: boolean, high: Token | null, highInclusive: boolean): Bitmap {
  const parts: Bitmap[] = []
  const lowNum = low ? prep(low).number : null
  const highNum = high ? prep(high).number : null
  if ((low === null || lowNum !== null) && (high === null || highNum !== null)) {
    const empty = low && high && (lowNum! > highNum! || (lowNum === highNum && !(lowInclusive && highInclusive)))
    if (!empty) {
      const keys = f.numberKeys()
      const from = low ? lowerBound(keys, lowNum!, numCmp, !lowInclusive) : 0
      const to = high ? lowerBound(keys, highNum!, numCmp, highInclusive) : keys.length
      if (from < to) parts.push(f.numbersIn(from, to))
    }
  }
  // Strings compare with the filter value as written (milli's string facet range).
  const c = low && high ? compareCodePoints(low.value, high.value) : -1
  if (!(c > 0 || (c === 0 && !(lowInclusive && highInclusive)))) {
    const keys = f.stringKeys()
    const from = low ? lowerBound(keys, low.value, compareCodePoints, !lowInclusive) : 0
    const to = high ? lowerBound(keys, high.value, compareCodePoints, highInclusive) : keys.length
    if (from < to) parts.push(f.stringsIn(from, to))
  }
  return parts.length === 0 ? EMPTY : parts.length === 1 ? parts[0]! : RoaringBitmap32.orMany(parts)
}

function strings(f: FieldFacets, keep: (s: string) => boolean): Bitmap {
  const parts: Bitmap[] = []
  for (const [key, entry] of f.strings) if (keep(key)) parts.push(entry.docids)
  return parts.length === 0 ? EMPTY : RoaringBitmap32.orMany(parts)
}

function startsWith(f: FieldFacets, prefix: string): Bitmap {
  const keys = f.stringKeys()
  const from = lowerBound(keys, prefix, compareCodePoints, false)
  let to = from
  while (to < keys.length && keys[to]!.startsWith(prefix)) to++
  return from < to ? f.stringsIn(from, to) : EMPTY
}

function condition(f: FieldFacets | undefined, c: Condition, live: Bitmap): Bitmap {
  if (c.op === '!=') return f ? RoaringBitmap32.andNot(live, equal(f, c.value)) : live
  if (!f) return EMPTY
  switch (c.op) {
    case 'EXISTS': return f.exists
    case 'IS NULL': return f.nulls
    case 'IS EMPTY': return f.empties
    case '=': return equal(f, c.value)
    case '>': return range(f, c.value, false, null, false)
    case '>=': return range(f, c.value, true, null, false)
    case '<': return range(f, null, false, c.value, false)
    case '<=': return range(f, null, false, c.value, true)
    case 'TO': return range(f, c.from, true, c.to, true)
    case 'CONTAINS': {
      const needle = prep(c.value).normalized
      return strings(f, (s) => s.includes(needle))
    }
    case 'STARTS WITH': return startsWith(f, prep(c.value).normalized)
  }
}

/**
 * The live documents matching `expr`. `fallback` evaluates what the facets do not hold (`_vectors` conditions)
 * document by document.
 */
export function evaluateFilter(expr: FilterExpression, facets: FacetIndex, live: Bitmap, fallback: (expr: FilterExpression) => Bitmap): Bitmap {
  const walk = (e: FilterExpression): Bitmap => {
    switch (e.type) {
      case 'and': {
        let out = live
        for (const child of e.children) {
          out = RoaringBitmap32.and(out, walk(child))
          if (out.isEmpty) break
        }
        return out
      }
      case 'or': return RoaringBitmap32.orMany(e.children.map(walk))
      case 'not': return RoaringBitmap32.andNot(live, walk(e.child))
      case 'condition': return condition(facets.field(e.field.value), e.condition, live)
      case 'in': {
        const f = facets.field(e.field.value)
        return f ? RoaringBitmap32.orMany(e.values.map((v) => equal(f, v))) : EMPTY
      }
      case 'geoRadius': case 'geoBoundingBox': case 'geoPolygon': {
        const out: number[] = []
        for (const [docid, point] of facets.geo) if (geoMatches(e, point)) out.push(docid)
        return RoaringBitmap32.from(out.sort((a, b) => a - b))
      }
      case 'vectorExists': return fallback(e)
    }
  }
  return RoaringBitmap32.and(walk(expr), live)
}

/**
 * Facet search (`POST /indexes/{uid}/facet-search`, milli's `SearchForFacetValues`): the string values of one
 * facet-searchable attribute among a search's matching documents, with their counts.
 *
 * - Without a `facetQuery` (or an empty one): every value; with one, the values whose normalized form starts
 *   with the normalized query, within the typos its length allows (`typoTolerance`: none below `oneTypo`
 *   characters, one below `twoTypos`, else two; none when typo tolerance is off or the query is in
 *   `disableOnWords`).
 * - In value order, or by descending count when `sortFacetValuesBy` says `count` for the attribute.
 * - At most `maxValuesPerFacet` values; values counting no matching document are left out.
 */
import { TesseraError } from '../errors/index.js'
import { foldDiacritics, matchingRule, normalizeFacet, normalizeRules, patternsOf } from '../filter/index.js'
import type { Bitmap } from '../inverted/index.js'
import type { Settings } from '../settings/index.js'
import type { FacetIndex } from './index.js'

export interface FacetHit {
  value: string
  count: number
}

/** `invalid_facet_search_facet_name` unless a rule with facet search covers the attribute. */
export function checkFacetSearchable(field: string, settings: Settings): void {
  const rules = normalizeRules(settings.filterableAttributes)
  const rule = matchingRule(field, rules)
  if (rule?.facetSearch) return
  const patterns = patternsOf(rules, (r) => r.facetSearch)
  const tail = rule
    ? `Note: this attribute matches rule #${rule.index} in filterableAttributes, but this rule does not enable facetSearch.\nHint: enable facetSearch in rule #${rule.index} by adding \`"facetSearch": true\` to the rule.\nHint: prepend another rule matching ${field} with facetSearch: true before rule #${rule.index}`
    : patterns.length === 0
      ? 'This index does not have configured facet-searchable attributes. To make it facet-searchable add it to the `filterableAttributes` index settings.'
      : `Available facet-searchable attributes patterns are: \`${patterns.join(', ')}\`. To make it facet-searchable add it to the \`filterableAttributes\` index settings.`
  throw new TesseraError('invalid_facet_search_facet_name', `Attribute \`${field}\` is not facet-searchable. ${tail}`)
}

/** The smallest Damerau-Levenshtein distance between `query` and a prefix of `value` (capped at `max + 1`). */
export function prefixDistance(query: string[], value: string[], max: number): number {
  const n = query.length
  let prev2: number[] = []
  let prev = Array.from({ length: n + 1 }, (_, i) => i)
  let best = prev[n]!
  for (let j = 1; j <= value.length; j++) {
    const row = [j]
    let rowMin = j
    for (let i = 1; i <= n; i++) {
      const cost = query[i - 1] === value[j - 1] ? 0 : 1
      let d = Math.min(prev[i]! + 1, row[i - 1]! + 1, prev[i - 1]! + cost)
      if (i > 1 && j > 1 && query[i - 1] === value[j - 2] && query[i - 2] === value[j - 1]) d = Math.min(d, prev2[i - 2]! + 1)
      row.push(d)
      if (d < rowMin) rowMin = d
    }
    if (row[n]! < best) best = row[n]!
    if (rowMin > max) break
    prev2 = prev
    prev = row
  }
  return Math.min(best, max + 1)
}

function allowedTypos(query: string, settings: Settings): number {
  const typo = settings.typoTolerance
  if (!typo.enabled) return 0
  const chars = [...query].length
  if (chars >= typo.minWordSizeForTypos.twoTypos) return 2
  if (chars >= typo.minWordSizeForTypos.oneTypo) return 1
  return 0
}

export function searchFacetValues(facets: FacetIndex, field: string, facetQuery: string | null, candidates: Bitmap, settings: Settings): FacetHit[] {
  const f = facets.field(field)
  if (!f) return []
  const max = settings.faceting.maxValuesPerFacet
  const by = settings.faceting.sortFacetValuesBy as Record<string, string>
  const byCount = (by[field] ?? by['*']) === 'count'
  const query = facetQuery === null ? '' : foldDiacritics(normalizeFacet(facetQuery))
  const typos = query === '' || settings.typoTolerance.disableOnWords.includes(query) ? 0 : allowedTypos(query, settings)
  const q = [...query]
  const hits: FacetHit[] = []
  for (const key of f.stringKeys()) {
    if (!byCount && hits.length >= max) break
    const folded = foldDiacritics(key)
    const matches = typos === 0 ? folded.startsWith(query) : prefixDistance(q, [...folded], typos) <= typos
    if (!matches) continue
    const entry = f.strings.get(key)!
    const count = entry.docids.andCardinality(candidates)
    if (count > 0) hits.push({ value: entry.original, count })
  }
  // Stable: equal counts stay in value order.
  if (byCount) hits.sort((a, b) => b.count - a.count)
  return hits.slice(0, max)
}

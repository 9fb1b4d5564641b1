/**
 * The values two ranked hits are compared by when lists from different searches are merged (milli's
 * `ScoreDetails::score_values`, used by hybrid search): each rule in order gives either a score (the ranks of
 * consecutive relevancy rules merged into one, a semantic similarity) or a sort rank (sort and geo sort rules,
 * which are not scores). Both searches of a hybrid query rank on the same view with the same sort keys, so the
 * sort rank stands for the sort value: lower is better.
 */
import type { Components } from './components.js'
import type { RankingRule } from './rule.js'

export type ScoreValue = { score: number } | { sortRank: number }

/** The values of a keyword search's rules for one measured document. */
export function keywordScoreValues(rules: readonly RankingRule[], c: Components, docid: number): ScoreValue[] {
  const out: ScoreValue[] = []
  let rank = 1
  let max = 1
  let open = false
  const flush = () => {
    if (open) out.push({ score: rank / max })
    rank = 1
    max = 1
    open = false
  }
  for (const rule of rules) {
    if (rule.kind === 'sort' || rule.kind === 'geoSort') {
      flush()
      out.push({ sortRank: rule.cost(c, docid) })
      continue
    }
    rule.rank(c, (r, m) => {
      rank = (rank - 1) * m + r
      max *= m
      open = true
    })
  }
  flush()
  return out
}

/**
 * milli's `compare_scores` (search/hybrid.rs): positive when the left hit ranks before the right one. Scores are
 * weighted by their list's ratio and equal within `Number.EPSILON`; a score against a sort rank wins unless it
 * is 0; the hit whose values run out first loses.
 */
export function compareScoreValues(left: readonly ScoreValue[], leftRatio: number, right: readonly ScoreValue[], rightRatio: number): number {
  for (let i = 0; ; i++) {
    const l = left[i]
    const r = right[i]
    if (l === undefined && r === undefined) return 0
    if (l === undefined) return -1
    if (r === undefined) return 1
    if ('score' in l && 'score' in r) {
      const a = l.score * leftRatio
      const b = r.score * rightRatio
      if (Math.abs(a - b) <= Number.EPSILON) continue
      return a > b ? 1 : -1
    }
    if ('sortRank' in l && 'sortRank' in r) {
      if (l.sortRank === r.sortRank) continue
      return l.sortRank < r.sortRank ? 1 : -1
    }
    if ('score' in l) return l.score === 0 ? -1 : 1
    return (r as { score: number }).score === 0 ? 1 : -1
  }
}

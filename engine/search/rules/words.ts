/** words: documents matching more of the query's words first (the matching strategy decides which are dropped). */
import { C_SKIPPED, type Components } from './components.js'
import type { RankingRule } from './rule.js'

/** `totalWords`: the query's word count (a phrase counts its words, an ngram the words it joins). */
export function wordsRule(totalWords: number): RankingRule {
  const matching = (c: Components) => totalWords - c[C_SKIPPED]!
  return {
    kind: 'words',
    name: 'words',
    cost: (c) => c[C_SKIPPED]!,
    rank: (c, digit) => digit(matching(c), totalWords),
    details: (c, _docid, order) => ({ order, matchingWords: matching(c), maxMatchingWords: totalWords, score: matching(c) / totalWords }),
  }
}

// @ts-check
/**
 * A hit's `_rankingScoreDetails`, rule by rule in the order the rules applied: what each rule saw and the score it
 * gave, so a user tuning relevancy sees why a document ranks where it does.
 */
import { h } from './elements.js'

/**
 * @typedef {{ order: number, score?: number, [fact: string]: unknown }} RuleDetails
 */

/** The facts worth a word per rule; others are shown as they come. */
/** @type {Record<string, (d: RuleDetails) => string>} */
const FACTS = {
  words: (d) => `${d.matchingWords} of ${d.maxMatchingWords} query words`,
  typo: (d) => `${d.typoCount} typo${d.typoCount === 1 ? '' : 's'} (at most ${d.maxTypoCount})`,
  proximity: () => 'how close the query words are',
  attribute: (d) => facts(d),
  attributeRank: () => 'rank of the best matching attribute',
  wordPosition: () => 'position of the words in it',
  exactness: (d) => `match: ${d.matchType}${d.matchingWords !== undefined ? `, ${d.matchingWords} of ${d.maxMatchingWords} exact` : ''}`,
  vectorSort: (d) => `similarity ${fmt(d.similarity)}`,
}

/**
 * @param {unknown} value
 */
function fmt(value) {
  return typeof value === 'number' ? value.toFixed(4).replace(/\.?0+$/, '') : String(value)
}

/**
 * @param {RuleDetails} d
 */
function facts(d) {
  return Object.entries(d).filter(([k]) => k !== 'order' && k !== 'score').map(([k, v]) => `${k}: ${typeof v === 'object' ? JSON.stringify(v) : fmt(v)}`).join(', ')
}

/**
 * @param {number | undefined} score
 */
export function scoreMeter(score) {
  if (typeof score !== 'number') return h('span', { class: 'muted' }, '—')
  return h('span', { class: 'score' },
    h('meter', { min: 0, max: 1, value: score, 'aria-label': 'score' }),
    h('span', { class: 'score-value' }, score.toFixed(3)))
}

/**
 * @param {Record<string, RuleDetails>} details
 */
export function rankingDetails(details) {
  const rules = Object.entries(details).sort(([, a], [, b]) => a.order - b.order)
  return h('table', { class: 'ranking' },
    h('caption', { class: 'visually-hidden' }, 'Ranking score per rule'),
    h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Rule'), h('th', { scope: 'col' }, 'Score'), h('th', { scope: 'col' }, 'Why'))),
    h('tbody', {}, rules.map(([name, d]) => {
      // `sort` and custom rules (`year:desc`) carry a value rather than a score.
      const why = (FACTS[name] ?? facts)(d)
      return h('tr', { 'data-rule': name },
        h('th', { scope: 'row' }, name),
        h('td', {}, scoreMeter(d.score)),
        h('td', {}, why))
    })))
}

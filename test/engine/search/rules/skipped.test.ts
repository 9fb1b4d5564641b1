/**
 * Documents the deadline left unranked, scored as milli's bucket sort scores them (milli's
 * search/new/tests/cutoff.rs `degraded_search_and_score_details`: Words 3/3 then Skipped is 0.6667, Words 2/3 then
 * Skipped 0.3333, Skipped alone 0).
 */
import t from 'tap'
import { skippedEvaluation } from '../../../../engine/search/rules/index.js'

t.test('the words rank, then skipped', async (t) => {
  const all = skippedEvaluation({ matchingWords: 3, totalWords: 3 })
  t.equal(all.score, 2 / 3)
  t.same(all.details, { words: { order: 0, matchingWords: 3, maxMatchingWords: 3, score: 1 }, skipped: { order: 1 } })
  t.same(all.values, [{ score: 2 / 3 }], 'one merged score for a hybrid merge')
  const two = skippedEvaluation({ matchingWords: 2, totalWords: 3 })
  t.equal(two.score, 1 / 3)
  t.same(two.details, { words: { order: 0, matchingWords: 2, maxMatchingWords: 3, score: 2 / 3 }, skipped: { order: 1 } })
  t.equal(skippedEvaluation({ matchingWords: 1, totalWords: 1 }).score, 0, 'a one-word query: the words rank alone gives nothing')
})

t.test('skipped alone: no rule had ranked the document', async (t) => {
  const none = skippedEvaluation(null)
  t.equal(none.score, 0)
  t.same(none.details, { skipped: { order: 0 } })
  t.same(none.values, [{ score: 0 }])
})

/**
 * `searchCutoffMs` on a keyword search: past the deadline the documents left unranked still come back (filters
 * are never skipped), in internal id order, each scored as milli scores what it skipped. With a budget of 0 no rule
 * ranks anything: every hit has `_rankingScore` 0 and `{"skipped": {"order": 0}}` as its details (milli's bucket
 * sort checks the deadline before its first bucket).
 */
import t from 'tap'
import { serverFor } from '../helpers/server.js'

t.test('a search past its cutoff', async (t) => {
  const server = await serverFor(t)
  const index = server.client.index('cutoff')
  await index.updateSettings({ filterableAttributes: ['id'], rankingRules: ['words', 'typo'] }).waitTask()
  // milli's cutoff.rs documents, ids reversed against insertion order.
  await index.addDocuments([
    { id: 4, text: 'hella puppo kefir' }, { id: 3, text: 'hella puppy kefir' }, { id: 2, text: 'hello' },
    { id: 1, text: 'hello puppy' }, { id: 0, text: 'hello puppy kefir' },
  ], { primaryKey: 'id' }).waitTask()

  const ranked = await index.search('hello puppy kefir', { showRankingScore: true, showRankingScoreDetails: true, limit: 4 })
  // milli's snapshot lists internal ids [4, 1, 0, 3]: the documents 0, 3, 4, 1 here.
  t.same(ranked.hits.map((h) => h.id), [0, 3, 4, 1], 'without a cutoff: ranked by words then typo')
  t.ok(ranked.hits.every((h) => (h._rankingScore as number) > 0))

  await index.updateSettings({ searchCutoffMs: 0 }).waitTask()
  const cut = await index.search('hello puppy kefir', { showRankingScore: true, showRankingScoreDetails: true, limit: 10 })
  t.equal(cut.hits.length, 5, 'every matching document still comes back')
  t.same(cut.hits.map((h) => h.id), [4, 3, 2, 1, 0], 'in internal id order (insertion order)')
  for (const hit of cut.hits) {
    t.equal(hit._rankingScore, 0, `${hit.id}: score 0`)
    t.same(hit._rankingScoreDetails, { skipped: { order: 0 } }, `${hit.id}: skipped details`)
  }
  const filtered = await index.search('hello puppy kefir', { filter: 'id > 2', limit: 10 })
  t.same(filtered.hits.map((h) => h.id).sort(), [3, 4], 'the filter still applies past the cutoff')
  const threshold = await index.search('hello puppy kefir', { rankingScoreThreshold: 0.5, limit: 10 })
  t.equal(threshold.hits.length, 0, 'nothing unranked passes a threshold above 0')
  t.equal(threshold.estimatedTotalHits, 0, 'and it is not counted')
})

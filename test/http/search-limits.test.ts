/**
 * Per-request search costs are bounded as milli bounds them (issue 17, found by a fuzz run): a query word longer
 * than MAX_WORD_LENGTH (250 bytes) is an empty term (no derivation, no split into two words), and only the start
 * of a huge query text is read. Before the fix, one 40,000-character word held the HTTP thread for a minute.
 */
import t from 'tap'
import { call, seedIndex, serverFor } from '../helpers/server.js'

t.test('huge query words and texts', async (t) => {
  const { url } = await serverFor(t)
  const left = 'a'.repeat(130)
  const right = 'b'.repeat(130)
  await seedIndex(url, 'x', {}, [{ id: 1, text: `${left} ${right}` }, { id: 2, text: 'hello world' }])
  const search = (q: string) => call(`${url}/indexes/x/search`, { method: 'POST', json: { q, attributesToHighlight: ['*'], showMatchesPosition: true } })

  await t.test('a word over 250 bytes matches nothing, not even by a split into two indexed words', async (t) => {
    // 130 + 130 bytes: both halves are indexed words, next to each other in document 1.
    const r = await search(left + right)
    t.equal(r.status, 200)
    t.same(r.body.hits, [])
    // Under the limit, the split still counts (milli's split_best_frequency).
    const short = await call(`${url}/indexes/x/search`, { method: 'POST', json: { q: 'helloworld' } })
    t.same(short.body.hits.map((h: any) => h.id), [2])
  })

  await t.test('a 200,000-character word answers, and /health answers beside it', async (t) => {
    const [r, health] = await Promise.all([search('a'.repeat(200_000)), call(`${url}/health`)])
    t.equal(r.status, 200)
    t.same(r.body.hits, [])
    t.equal(r.body.query.length, 200_000, 'the query is echoed whole')
    t.equal(health.status, 200)
  })

  await t.test('a query text of megabytes reads only its start', async (t) => {
    const r = await search(`hello ${'zz '.repeat(400_000)}`)
    t.equal(r.status, 200)
    t.same(r.body.hits.map((h: any) => h.id), [2], 'the first words still count')
    const separators = await search(`${'. '.repeat(500_000)}hello`)
    t.equal(separators.status, 200)
  })
})

/** The short generated documents of the documents scenario's ndjson-short run. */
import t from 'tap'
import { SHORT_FIELDS, generateShortDocuments } from '../../../bench/data/short-corpus.js'

t.test('the same count and seed give the same short documents, ids 0..n-1', async (t) => {
  const a = [...generateShortDocuments(500)]
  const b = [...generateShortDocuments(500)]
  t.same(a, b)
  t.same(a.map((d) => d.id), Array.from({ length: 500 }, (_, i) => i))
  t.notSame([...generateShortDocuments(5, 1)], a.slice(0, 5), 'another seed, other documents')
  t.same(Object.keys(a[0]!).filter((k) => k !== 'id'), SHORT_FIELDS, 'every field but the id is what a peer indexes')
})

t.test('they are short: a 1–3-word name and a 3–15-word summary, a version, a positive download count', async (t) => {
  for (const d of generateShortDocuments(2000)) {
    const name = d.name.split('-').length
    const summary = d.summary.split(' ').length
    if (name < 1 || name > 3 || summary < 3 || summary > 15 || !/^\d+\.\d+\.\d+$/.test(d.version) || !(d.downloads >= 1) || !Number.isInteger(d.downloads)) {
      t.fail(`document ${d.id} is not short: ${JSON.stringify(d)}`)
      return
    }
  }
  t.pass('2,000 documents checked')
})

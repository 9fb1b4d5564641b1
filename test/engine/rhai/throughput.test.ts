/**
 * A micro-measure, not a timed test: the typical edit (`doc.title = doc.title.to_upper(); doc.views += 1`)
 * over 100,000 small documents through the chunk job, in chunks of 1,000, and the cost of compiling the script
 * once per chunk. The figures are printed as comments; only the results are asserted.
 */
import t from 'tap'
import { compileScript, editChunk } from '../../../engine/rhai/index.js'

t.test('edit throughput', async (t) => {
  const script = 'doc.title = doc.title.to_upper(); doc.views += 1'
  const documents = Array.from({ length: 100_000 }, (_, i) =>
    JSON.stringify({ id: i, title: `movie number ${i}`, views: i % 1000, genres: ['drama', 'comedy'], rating: 3.5 }))

  const compileRounds = 2000
  let started = process.hrtime.bigint()
  for (let i = 0; i < compileRounds; i++) compileScript(script)
  const compileMicros = Number(process.hrtime.bigint() - started) / 1e3 / compileRounds

  started = process.hrtime.bigint()
  let edited = 0
  let last = ''
  for (let i = 0; i < documents.length; i += 1000) {
    const out = editChunk({ script, context: null, primaryKey: 'id', documents: documents.slice(i, i + 1000) })
    t.equal(out.error, null)
    for (const outcome of out.outcomes) if (outcome.kind === 'edited') {
      edited++
      last = outcome.json
    }
  }
  const seconds = Number(process.hrtime.bigint() - started) / 1e9
  t.equal(edited, 100_000)
  t.same(JSON.parse(last), { id: 99_999, title: 'MOVIE NUMBER 99999', views: 1000, genres: ['drama', 'comedy'], rating: 3.5 })
  t.comment(`compile: ${compileMicros.toFixed(1)} µs per script; edit: ${Math.round(100_000 / seconds)} documents/s (${seconds.toFixed(2)} s for 100,000, one thread)`)
})

/** `performanceDetails` / `progressTrace`: stage durations as Rust prints a `Duration` with `{:.2?}`. */
import t from 'tap'
import { formatStageDuration, StageTimer } from '../../../engine/search/performance.js'

t.test('formatStageDuration: the largest unit with a whole part, two decimals', async (t) => {
  t.equal(formatStageDuration(0), '0.00ns')
  t.equal(formatStageDuration(0.000512), '512.00ns')
  t.equal(formatStageDuration(0.29529), '295.29µs')
  t.equal(formatStageDuration(3.56), '3.56ms')
  t.equal(formatStageDuration(999.999), '1000.00ms', 'rounding does not change the unit chosen from the value')
  t.equal(formatStageDuration(1200), '1.20s')
  t.equal(formatStageDuration(-1), '0.00ns', 'a clock going backwards is no negative duration')
})

t.test('StageTimer: stages in the order they end, repeated stages add up, the whole last', async (t) => {
  const timer = new StageTimer()
  t.equal(timer.time('tokenize', () => 42), 42, 'returns what the stage returns')
  timer.record('search > keyword search', 2)
  timer.record('search > keyword search', 1)
  t.throws(() => timer.time('format', () => { throw new Error('boom') }), /boom/, 'a failing stage still throws')
  const details = timer.details(10)
  t.same(Object.keys(details), ['search > tokenize', 'search > keyword search', 'search > format', 'search'])
  t.equal(details['search > keyword search'], '3.00ms')
  t.equal(details.search, '10.00ms')
  t.same(Object.keys(new StageTimer('processing tasks').details(1)), ['processing tasks'])
})

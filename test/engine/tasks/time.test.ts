import t from 'tap'
import { formatDuration, formatMicros, nowMicros, parseDateParam } from '../../../engine/tasks/time.js'

t.test('durations print like Meilisearch', async (t) => {
  t.equal(formatDuration(0), 'PT0S')
  t.equal(formatDuration(1_000_000), 'PT1S')
  t.equal(formatDuration(1_500_000), 'PT1.500S')
  t.equal(formatDuration(12_345), 'PT0.012345S')
  t.equal(formatDuration(86_400_000_000), 'P1D')
  t.equal(formatDuration(86_405_000_000), 'P1DT5S')
  t.equal(formatDuration(2 * 86_400_000_000 + 3_000), 'P2DT0.003S')
})

t.test('timestamps are RFC 3339 with trimmed microseconds', async (t) => {
  const base = Date.UTC(2026, 10, 22, 4, 34, 16) * 1000
  t.equal(formatMicros(base), '2026-11-22T04:34:16Z')
  t.equal(formatMicros(base + 123_450), '2026-11-22T04:34:16.12345Z')
  t.equal(formatMicros(base + 7), '2026-11-22T04:34:16.000007Z')
  t.equal(formatMicros(base + 500_000), '2026-11-22T04:34:16.5Z')
})

t.test('the clock never goes back nor ties', async (t) => {
  let last = nowMicros()
  for (let i = 0; i < 1000; i++) {
    const next = nowMicros()
    t.ok(next > last) || t.bailout()
    last = next
  }
})

t.test('date parameters', async (t) => {
  const midnight = Date.UTC(2021, 11, 3) * 1000
  t.equal(parseDateParam('2021-12-03', false), midnight)
  t.equal(parseDateParam('2021-12-03', true), midnight + 86_400_000_000, 'after* bounds move to the next midnight')
  t.equal(parseDateParam('2021-12-03T23:45:23Z', false), Date.UTC(2021, 11, 3, 23, 45, 23) * 1000)
  t.equal(parseDateParam('1997-11-12T09:55:06-06:20', false), Date.parse('1997-11-12T09:55:06-06:20') * 1000)
  t.equal(parseDateParam('2021-12-03T23:45:23.2000003Z', false), Date.UTC(2021, 11, 3, 23, 45, 23) * 1000 + 200_000)
  for (const bad of ['2021', '2021-12', '2021-12-03T23', '2021-12-03T23:45', 'doggo', '']) t.equal(parseDateParam(bad, false), undefined, bad)
  // A printed date reads back as the same microsecond (a float product of the fraction once lost one: 0.031323).
  t.equal(parseDateParam('2026-11-22T07:48:41.031323Z', false), Date.UTC(2026, 10, 22, 7, 48, 41) * 1000 + 31323)
  let mismatches = 0
  for (let i = 0; i < 20000; i++) {
    const us = 1_795_000_000_000_000 + i * 7_919 + (i % 1_000_000)
    if (parseDateParam(formatMicros(us), false) !== us) mismatches++
  }
  t.equal(mismatches, 0, 'formatMicros → parseDateParam round-trips')
})

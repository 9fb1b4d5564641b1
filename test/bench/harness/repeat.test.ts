/** Repeated bench runs: medians keep the result's shape, spreads give min/median/max of every number. */
import t from 'tap'
import { medianResult, noise, spreadOf } from '../../../bench/harness/repeat.js'

const runs = [
  { name: 'a', docsPerSecond: 100, rows: [{ p50: 1, label: 'x' }, { p50: 9 }], ok: true, note: null },
  { name: 'b', docsPerSecond: 300, rows: [{ p50: 3, label: 'y' }, { p50: 7 }], ok: false, note: 'late' },
  { name: 'c', docsPerSecond: 200, rows: [{ p50: 2, label: 'z' }, { p50: 8 }], ok: true, note: null },
]

t.test('the median result has the first run\'s shape and the median of every number', async (t) => {
  t.same(medianResult(runs), { name: 'a', docsPerSecond: 200, rows: [{ p50: 2, label: 'x' }, { p50: 8 }], ok: true, note: null })
  t.same(medianResult([runs[0], runs[1]]), { ...runs[0], docsPerSecond: 200, rows: [{ p50: 2, label: 'x' }, { p50: 8 }] }, 'an even count averages the middle two')
  t.equal(medianResult([runs[2]]), runs[2], 'one run is itself')
  t.throws(() => medianResult([]))
})

t.test('spreads give min, median and max of every number', async (t) => {
  const s = spreadOf(runs) as any
  t.same(s.docsPerSecond, { min: 100, median: 200, max: 300 })
  t.same(s.rows[1].p50, { min: 7, median: 8, max: 9 })
  t.equal(s.name, 'a')
})

t.test('runs that differ in shape keep the first run\'s part; a missing number is not averaged in', async (t) => {
  const m = medianResult([{ rows: [1, 2], x: 1 }, { rows: [5], x: null }, { rows: [3, 4], x: 3 }]) as any
  t.same(m.rows, [1, 2])
  t.equal(m.x, 1, 'a null in one run: the first run\'s value')
})

t.test('noise is the spread of a figure over its median', async (t) => {
  t.same(noise(runs, { docs: (r) => r.docsPerSecond, missing: () => null }), [{ figure: 'docs', spreadPercent: 100, min: 100, median: 200, max: 300 }])
  t.same(noise([runs[0]], { docs: (r) => r.docsPerSecond }), [], 'one run has no noise')
})

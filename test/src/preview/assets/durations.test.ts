import t from 'tap'
import { pageModule } from './page-module.js'

const { durationSeconds, readableDuration } = await pageModule<{
  durationSeconds(text: string | null | undefined): number | null
  readableDuration(text: string | null | undefined): string
}>('durations.js')

t.test('ISO-8601 durations as the task API writes them', async (t) => {
  t.equal(durationSeconds('PT0.012345S'), 0.012345)
  t.equal(durationSeconds('PT1.5S'), 1.5)
  t.equal(durationSeconds('P1DT5S'), 86405)
  t.equal(durationSeconds('PT2H3M4S'), 7384)
  t.equal(durationSeconds('P2D'), 172800)
  for (const bad of ['', 'doggo', '1.5S', 'PTS5', null, undefined]) t.equal(durationSeconds(bad), null, String(bad))
})

t.test('made readable', async (t) => {
  t.equal(readableDuration('PT0.012345S'), '12 ms')
  t.equal(readableDuration('PT1.234S'), '1.23 s')
  t.equal(readableDuration('PT33.61S'), '33.6 s')
  t.equal(readableDuration('PT83.5S'), '1 min 23.5 s')
  t.equal(readableDuration('P1DT1H'), '25 h 0 min')
  t.equal(readableDuration('weird'), 'weird', 'shown as it came when not a duration')
  t.equal(readableDuration(null), '—')
})

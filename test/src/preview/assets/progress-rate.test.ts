import t from 'tap'
import { pageModule } from './page-module.js'

interface ProgressRate {
  add(subject: string, finished: number, at: number): void
  rate(): number | null
  secondsLeft(total: number): number | null
}
const { ProgressRate, WINDOW_MS, humanSeconds } = await pageModule<{
  ProgressRate: new () => ProgressRate
  WINDOW_MS: number
  humanSeconds(seconds: number): string
}>('progress-rate.js')

t.test('rate and time left from successive polls', async (t) => {
  const rate = new ProgressRate()
  t.equal(rate.rate(), null, 'nothing yet')
  rate.add('b1', 0, 0)
  t.equal(rate.rate(), null, 'one poll says nothing of a pace')
  t.equal(rate.secondsLeft(100), null)
  rate.add('b1', 1000, 500)
  rate.add('b1', 3000, 1500)
  t.equal(rate.rate(), 2000, '3000 documents in 1.5 s')
  t.equal(rate.secondsLeft(10_000), 3.5)
  t.equal(rate.secondsLeft(2000), 0, 'never negative')
})

t.test('starts over for another batch, step or total, or a count that goes back', async (t) => {
  const rate = new ProgressRate()
  rate.add('b1', 0, 0)
  rate.add('b1', 500, 1000)
  rate.add('b2', 10, 1100)
  t.equal(rate.rate(), null, 'another subject')
  rate.add('b2', 110, 2100)
  t.equal(rate.rate(), 100)
  rate.add('b2', 50, 2200)
  t.equal(rate.rate(), null, 'a count that went back')
})

t.test('follows the recent pace', async (t) => {
  const rate = new ProgressRate()
  rate.add('b', 0, 0)
  rate.add('b', 100_000, 1000) // a fast start
  for (let at = 2000; at <= 2000 + 2 * WINDOW_MS; at += 1000) rate.add('b', 100_000 + (at - 1000) / 10, at)
  t.ok(Math.abs(rate.rate()! - 100) < 1e-9, `the old burst left the window: ${rate.rate()}`)
  t.equal(rate.rate(), rate.rate(), 'stable')
})

t.test('seconds for people', async (t) => {
  t.equal(humanSeconds(0.2), 'under a second')
  t.equal(humanSeconds(4.4), '4 s')
  t.equal(humanSeconds(60), '1 min')
  t.equal(humanSeconds(90), '1 min 30 s')
  t.equal(humanSeconds(3725), '1 h 2 min')
})

// The request limiter: concurrency slots, a per-minute request budget that paces once a minute's burst is spent,
// and waits that end when the caller cancels.
import t from 'tap'
import { RequestLimiter, estimateTokens } from '../../../engine/embedders/request-limiter.js'

const tick = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

t.test('at most `concurrency` calls run at once', async (t) => {
  const limiter = new RequestLimiter({ concurrency: 2 })
  let running = 0
  let most = 0
  await Promise.all(Array.from({ length: 7 }, () => limiter.run(0, undefined, async () => {
    running++
    most = Math.max(most, running)
    await tick(10)
    running--
  })))
  t.equal(most, 2)
})

t.test('requestsPerMinute: a minute of burst, then one request per 60/N seconds', async (t) => {
  const limiter = new RequestLimiter({ concurrency: 100, requestsPerMinute: 60 })
  const started = performance.now()
  const done: number[] = []
  await Promise.all(Array.from({ length: 62 }, () => limiter.run(0, undefined, async () => {
    done.push(performance.now() - started)
  })))
  done.sort((a, b) => a - b)
  t.ok(done[59]! < 800, `the first 60 start at once (${Math.round(done[59]!)} ms)`)
  t.ok(done[61]! >= 900 && done[61]! < 3_000, `the 62nd waits about 2 s (${Math.round(done[61]!)} ms)`)
})

t.test('tokensPerMinute paces by estimated tokens', async (t) => {
  t.equal(estimateTokens('abcd'), 1)
  t.equal(estimateTokens('abcde'), 2)
  t.equal(estimateTokens('é'.repeat(4)), 2, 'bytes, not characters')
  const limiter = new RequestLimiter({ concurrency: 10, tokensPerMinute: 600 })
  const started = performance.now()
  await limiter.run(590, undefined, async () => undefined)
  await limiter.run(20, undefined, async () => undefined)
  const waited = performance.now() - started
  t.ok(waited >= 900 && waited < 3_000, `the second call waited for its tokens (${Math.round(waited)} ms)`)
})

t.test('waiting for a slot or for budget ends on cancellation', async (t) => {
  const limiter = new RequestLimiter({ concurrency: 1, requestsPerMinute: 1 })
  const controller = new AbortController()
  const first = limiter.run(0, undefined, () => tick(50))
  const second = limiter.run(0, controller.signal, async () => 'ran')
  const third = limiter.run(0, controller.signal, async () => 'ran')
  setTimeout(() => controller.abort(new Error('canceled')), 100)
  await first
  await t.rejects(second, { message: 'canceled' })
  await t.rejects(third, { message: 'canceled' })
  const started = performance.now()
  await t.rejects(limiter.run(0, controller.signal, async () => 'ran'), { message: 'canceled' })
  t.ok(performance.now() - started < 5_000, 'at once, not after the minute the budget would take')
})

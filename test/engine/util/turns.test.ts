/**
 * Work in turns (engine/util/turns.ts): a long step function lets timers and I/O in between its turns, waits for the
 * promises it yields and is resumed with their values; run straight, it never pauses and refuses to wait.
 */
import t from 'tap'
import { inTurns, straight, turnTaker, type Steps } from '../../../engine/util/turns.js'

/**
 * Busy work of `ms` × 10 steps of 0.1 ms each (counted, not timed: a loaded machine stretches the wall time),
 * yielding after each; returns how many pauses it offered.
 */
function* busy(ms: number): Steps<number> {
  let pauses = 0
  for (let step = 0; step < ms * 10; step++) {
    const until = performance.now() + 0.1
    while (performance.now() < until);
    pauses++
    yield
  }
  return pauses
}

t.test('in turns, a timer fires between the turns of a long step function', async (t) => {
  let ticks = 0
  const timer = setInterval(() => ticks++, 1)
  const pauses = await inTurns(busy(120), 4)
  clearInterval(timer)
  t.equal(pauses, 1200, 'the work offered a pause at each step')
  // At least once (a machine busy with other work may give this process few of the turns it offers).
  t.ok(ticks >= 1, `the timer fired between turns (${ticks} times in 120 ms of work)`)
})

t.test('straight through, nothing else runs until the work is done', async (t) => {
  let ticks = 0
  const timer = setInterval(() => ticks++, 1)
  straight(busy(30))
  t.equal(ticks, 0, 'the timer never fired')
  clearInterval(timer)
})

t.test('a yielded promise is waited for and its value handed back; a rejected one fails the run', async (t) => {
  function* steps(): Steps<string> {
    const a = (yield Promise.resolve(2)) as number
    const b = (yield new Promise<number>((resolve) => setTimeout(() => resolve(3), 5))) as number
    return `${a * b}`
  }
  t.equal(await inTurns(steps()), '6')
  t.throws(() => straight(steps()), /run it in turns/, 'straight refuses to wait')
  function* failing(): Steps<void> { yield Promise.reject(new Error('partition lost')) }
  await t.rejects(inTurns(failing()), /partition lost/)
})

t.test('a turn taker lets the event loop in once its turn is over, not before', async (t) => {
  const turn = turnTaker(5)
  t.equal(turn(), undefined, 'a fresh turn goes on')
  const end = performance.now() + 8
  while (performance.now() < end);
  let fired = false
  setImmediate(() => { fired = true })
  await turn()
  t.ok(fired, 'after 8 ms of work, the turn ended: a pending immediate ran')
})

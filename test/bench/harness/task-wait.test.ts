import t from 'tap'
import { looksHung } from '../../../bench/harness/task-wait.js'
import { systemBusyMs, systemIdleMs } from '../../../bench/harness/cpu.js'

t.test('a server without CPU is hung only when the machine had CPU to give it', async (t) => {
  t.equal(looksHung(2, 1.8, 15), true, 'idle machine, idle server: hung')
  t.equal(looksHung(12, 0.1, 15), false, 'saturated machine (or a disk wait): slow, not hung')
  t.equal(looksHung(90, 1.0, 15), false, 'a busy server is working')
  t.equal(looksHung(5, null, 15), true, 'no machine reading: the server CPU alone decides, as before')
})

t.test('the machine idle and busy times come from /proc/stat and move forward', { skip: process.platform !== 'linux' && 'needs /proc' }, async (t) => {
  const idle0 = systemIdleMs(), busy0 = systemBusyMs()
  await new Promise((resolve) => setTimeout(resolve, 300))
  const idle1 = systemIdleMs(), busy1 = systemBusyMs()
  t.ok(idle0 !== null && idle1 !== null && busy0 !== null && busy1 !== null)
  t.ok(idle1! + busy1! > idle0! + busy0!, 'the clock of the machine advanced')
})

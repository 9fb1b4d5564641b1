/**
 * The bench's wait for a quiet machine: `TESSERA_BENCH_QUIET_MS` sets the run's budget (the suite sets 0, so its bench
 * runs never sample the machine), anything else keeps the 20 s default.
 */
import t from 'tap'
import { performance } from 'node:perf_hooks'
import { QuietBudget, quietBudgetMs } from '../../../bench/harness/quiet.js'

t.test('the budget\'s setting', async (t) => {
  t.equal(quietBudgetMs(undefined), 20_000)
  t.equal(quietBudgetMs(''), 20_000)
  t.equal(quietBudgetMs('soon'), 20_000)
  t.equal(quietBudgetMs('-5'), 20_000)
  t.equal(quietBudgetMs('0'), 0)
  t.equal(quietBudgetMs('1500'), 1500)
})

t.test('a budget of 0 never samples the machine (a sample alone takes 300 ms)', async (t) => {
  const before = process.env.TESSERA_BENCH_QUIET_MS
  process.env.TESSERA_BENCH_QUIET_MS = '0'
  t.teardown(() => { if (before === undefined) delete process.env.TESSERA_BENCH_QUIET_MS; else process.env.TESSERA_BENCH_QUIET_MS = before })
  const budget = new QuietBudget()
  const start = performance.now()
  for (let i = 0; i < 3; i++) await budget.wait()
  t.ok(performance.now() - start < 300, 'three waits without a sample')
})

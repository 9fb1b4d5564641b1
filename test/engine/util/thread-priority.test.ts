/**
 * Background threads' priority: a thread lowers its own niceness, not the process's (searches on other threads keep
 * theirs), the pool's threads do it when they start, and `TESSERA_BACKGROUND_NICENESS` sets how much (0: not at all).
 */
import t from 'tap'
import { readFileSync, readdirSync } from 'node:fs'
import { Worker } from 'node:worker_threads'
import { backgroundNiceness, lowerThreadPriority, threadId, DEFAULT_BACKGROUND_NICENESS } from '../../../engine/util/thread-priority.js'
import { createWorkerPool } from '../../../workers/pool.js'

/** A thread's niceness, from /proc (field 19 of its stat line). */
function nicenessOf(tid: number): number {
  const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8')
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16])
}

const threads = () => readdirSync('/proc/self/task').map(Number)

t.test('the setting', async (t) => {
  t.equal(backgroundNiceness(undefined), DEFAULT_BACKGROUND_NICENESS)
  t.equal(backgroundNiceness(''), DEFAULT_BACKGROUND_NICENESS)
  t.equal(backgroundNiceness('low'), DEFAULT_BACKGROUND_NICENESS)
  t.equal(backgroundNiceness('20'), DEFAULT_BACKGROUND_NICENESS)
  t.equal(backgroundNiceness('2.5'), DEFAULT_BACKGROUND_NICENESS)
  t.equal(backgroundNiceness('0'), 0)
  t.equal(backgroundNiceness('19'), 19)
})

t.test('a thread lowers its own priority, not the process\'s', { skip: process.platform !== 'linux' && 'Linux only' }, async (t) => {
  const url = new URL('../../../engine/util/thread-priority.js', import.meta.url).href
  const worker = new Worker(`import('${url}').then((m) => { const tid = m.threadId(); const after = m.lowerThreadPriority(5); require('node:worker_threads').parentPort.postMessage({ tid, after }); setInterval(() => {}, 1000) })`, { eval: true })
  const { tid, after } = await new Promise<{ tid: number; after: number }>((resolve, reject) => { worker.once('message', resolve); worker.once('error', reject) })
  const mine = nicenessOf(threadId()!)
  t.equal(after, mine + 5, 'the thread says where it went')
  t.equal(nicenessOf(tid), mine + 5, 'the kernel agrees')
  t.equal(nicenessOf(threadId()!), mine, 'the calling thread kept its own')
  t.equal(lowerThreadPriority(0), null, '0 changes nothing')
  await worker.terminate()
})

t.test('the pool\'s threads run at the background niceness', { skip: process.platform !== 'linux' && 'Linux only' }, async (t) => {
  const mine = nicenessOf(threadId()!)
  const setting = process.env.TESSERA_BACKGROUND_NICENESS
  delete process.env.TESSERA_BACKGROUND_NICENESS
  t.teardown(() => { if (setting !== undefined) process.env.TESSERA_BACKGROUND_NICENESS = setting })
  const before = new Set(threads())
  const pool = createWorkerPool(2)
  t.teardown(() => pool.close())
  const target = Math.min(19, mine + DEFAULT_BACKGROUND_NICENESS)
  // The threads lower themselves once their modules are loaded (a few hundred ms; longer on a busy machine).
  let lowered: number[] = []
  for (let i = 0; i < 300 && lowered.length < 2; i++) {
    await new Promise((resolve) => setTimeout(resolve, 100))
    lowered = threads().filter((tid) => !before.has(tid) && nicenessOf(tid) === target)
  }
  t.equal(lowered.length, 2, `both pool threads at niceness ${target}`)
  t.equal(nicenessOf(threadId()!), mine, 'the thread that made the pool kept its own')
})

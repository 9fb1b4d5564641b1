/**
 * The heap setting of the service's threads (src/thread-heaps.ts): the flag chosen, a node argument winning, and
 * its effect on a thread started afterwards, in a process of its own: a thread that keeps ~20 MB of small objects
 * (old generation, past two scavenges) runs a mark-compact under V8's default first limit and none under ours.
 * It reports half a second after the allocations: on a loaded machine (the suite beside it) the marking V8 starts
 * during them was seen to end after 50 ms, and the default's run then counted none.
 */
import t from 'tap'
import { fileURLToPath } from 'node:url'
import { INITIAL_OLD_SPACE_MB, threadHeapFlags } from '../../src/thread-heaps.js'
import { nodeSync } from '../helpers/server.js'

t.test('the flag, unless node was given an initial heap size', async (t) => {
  t.same(threadHeapFlags([]), [`--initial-old-space-size=${INITIAL_OLD_SPACE_MB}`])
  t.same(threadHeapFlags(['--enable-source-maps']), [`--initial-old-space-size=${INITIAL_OLD_SPACE_MB}`])
  t.same(threadHeapFlags(['--initial-old-space-size=32']), [])
  t.same(threadHeapFlags(['--initial_old_space_size=32']), [])
  t.same(threadHeapFlags(['--initial-heap-size=100']), [])
  t.same(threadHeapFlags(['--initial-old-space-size-x=1']), [`--initial-old-space-size=${INITIAL_OLD_SPACE_MB}`], 'another flag is not taken for it')
})

const module = fileURLToPath(new URL('../../src/thread-heaps.js', import.meta.url))
const program = (apply: boolean) => `
import { Worker } from 'node:worker_threads'
const { configureThreadHeaps } = await import(${JSON.stringify(module)})
${apply ? 'configureThreadHeaps()' : ''}
const worker = new Worker(\`
import { PerformanceObserver, constants } from 'node:perf_hooks'
import { parentPort } from 'node:worker_threads'
let majors = 0
new PerformanceObserver((list) => { for (const e of list.getEntries()) if (e.detail.kind === constants.NODE_PERFORMANCE_GC_MAJOR) majors++ }).observe({ entryTypes: ['gc'] })
const kept = []
for (let i = 0; i < 200000; i++) kept.push({ i, s: 'x' + i, a: [i, i + 1] })
setTimeout(() => parentPort.postMessage(kept.length > 0 ? majors : -1), 500)
\`, { eval: true })
worker.on('message', (majors) => { process.stdout.write(String(majors)); worker.terminate() })
`

function majorCollections(apply: boolean): number {
  const run = nodeSync(['--input-type=module', '-e', program(apply)])
  if (run.status !== 0) throw new Error(run.stderr)
  return Number(run.stdout)
}

t.test('a thread started afterwards grows its old generation without marking', async (t) => {
  t.ok(majorCollections(false) >= 1, 'V8 default: at least one mark-compact')
  t.equal(majorCollections(true), 0, 'with the setting: none')
})

import t, { type Test } from 'tap'
import { getHeapStatistics } from 'node:v8'
import { setTimeout as sleep } from 'node:timers/promises'
import { QuietCollection, collectNow, collectSoon, heapInUse } from '../../../engine/util/garbage.js'

const used = () => getHeapStatistics().used_heap_size

const holder: { kept: { n: number; s: string }[] | null } = { kept: null }

/** ~40 MB of objects that survive a full collection (so they sit in the old generation), then dropped. */
function oldGarbage(): void {
  holder.kept = []
  for (let i = 0; i < 400_000; i++) holder.kept.push({ n: i, s: `value ${i}` })
  collectNow()
  holder.kept = null
}

t.test('collectNow is a full collection: old-generation garbage goes', async (t) => {
  collectNow()
  const base = used()
  oldGarbage()
  const before = used()
  t.ok(before - base > 20 << 20, `garbage made (${((before - base) / 1048576).toFixed(1)} MB)`)
  collectNow()
  t.ok(used() - base < 5 << 20, `collected (${((used() - base) / 1048576).toFixed(1)} MB left above the base)`)
})

t.test('collectSoon collects at the next task', async (t) => {
  collectNow()
  const base = used()
  oldGarbage()
  collectSoon()
  await sleep(100)
  t.ok(used() - base < 5 << 20, `collected (${((used() - base) / 1048576).toFixed(1)} MB left above the base)`)
})

t.test('heapInUse counts ArrayBuffers', async (t) => {
  const before = heapInUse()
  const buffer = new ArrayBuffer(32 << 20)
  t.ok(heapInUse() - before >= 32 << 20)
  t.equal(buffer.byteLength, 32 << 20)
})

/** A QuietCollection over a heap the test sets (`heap.inUse`), whose collection leaves `left` in use; counted. */
function watched(t: Test, left: number): { quiet: QuietCollection; heap: { inUse: number; collections: number } } {
  const heap = { inUse: 100, collections: 0 }
  const quiet = new QuietCollection({ growthBytes: 50, quietMs: 30, inUse: () => heap.inUse, collect: () => { heap.collections++; heap.inUse = left } })
  // The collector's timers never keep a thread alive: this test's must.
  const alive = setInterval(() => {}, 1000)
  t.teardown(() => clearInterval(alive))
  return { quiet, heap }
}

t.test('QuietCollection: once work stops, only when the heap grew', async (t) => {
  const { quiet, heap } = watched(t, 110)
  heap.inUse = 140
  quiet.workDone()
  await sleep(80)
  t.equal(heap.collections, 0, 'grew by less than the threshold: no collection')

  heap.inUse = 160
  for (let i = 0; i < 5; i++) {
    quiet.workDone()
    await sleep(10)
  }
  t.equal(heap.collections, 0, 'work keeps coming: postponed')
  await sleep(80)
  t.equal(heap.collections, 1, 'quiet after growing by the threshold: one collection')

  heap.inUse = 150
  quiet.workDone()
  await sleep(80)
  t.equal(heap.collections, 1, 'measured from what the last collection left (110): 40 is below the threshold')
  heap.inUse = 170
  quiet.workDone()
  await sleep(80)
  t.equal(heap.collections, 2, 'and 60 is above it')
})

t.test('QuietCollection: a piece of work that begins disarms the collection the last one armed', async (t) => {
  const { quiet, heap } = watched(t, 100)
  heap.inUse = 200
  quiet.workDone()
  quiet.workStarted()
  await sleep(80)
  t.equal(heap.collections, 0, 'no collection while the next piece runs, however long it pauses')
  quiet.workDone()
  await sleep(80)
  t.equal(heap.collections, 1, 'one once it is done')
})


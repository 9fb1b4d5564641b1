/**
 * Issue 17, part 4, for real: the server's data directory on a small tmpfs. With a batch held in `processing`,
 * the disk is filled: registrations answer `no_space_left_on_device` (422), searches, task reads and `/health` keep
 * working, the held batch cannot commit and waits. Space is freed: without a restart, the batch runs again and
 * succeeds, new writes are accepted, and every acknowledged task ended with its documents in the index.
 */
import t from 'tap'
import { join } from 'node:path'
import { randomBytes } from 'node:crypto'
import { call, serverFor, waitTask } from '../helpers/server.js'
import { smallDisk } from '../helpers/small-disk.js'
import { batchGate } from '../helpers/batch-gate.js'

const disk = smallDisk(128)
const docs = (from: number, n: number) => Array.from({ length: n }, (_, i) => ({ id: from + i, title: `book ${from + i} of the shelf` }))
/** One document with 96 KiB of random hex: the write-ahead log compresses, so only incompressible bytes fill the disk. */
const bulky = (id: number) => [{ id, title: `bulky ${id}`, blob: randomBytes(48 << 10).toString('hex') }]

async function until<T>(what: string, probe: () => Promise<T | undefined>, boundMs = 60_000): Promise<T> {
  const deadline = Date.now() + boundMs
  for (;;) {
    const value = await probe()
    if (value !== undefined) return value
    if (Date.now() > deadline) throw new Error(`${what}: not within ${boundMs} ms`)
    await new Promise((r) => setTimeout(r, 50))
  }
}

t.test('a full disk: writes refused, reads served, writes resume after space is freed without a restart', { skip: typeof disk === 'string' ? `needs a tmpfs: ${disk}` : false }, async (t) => {
  if (typeof disk === 'string') return
  t.teardown(() => disk.unmount())
  // RocksDB preallocates its write-ahead log (~70 MB, fallocate) when there is room, and appends into it on a full
  // disk: with 24 MB free at start-up, the preallocation cannot be made and the disk fills with the data itself.
  disk.fill(24 << 20)
  // A batch is held in `processing` by the gate, so the disk can fill between a task's 202 and its batch's commit.
  const gate = batchGate(t)
  const server = await serverFor(t, { dbPath: join(disk.path, 'data.ms'), env: gate.env })
  const url = server.url
  const first = await call(`${url}/indexes/books/documents?primaryKey=id`, { method: 'POST', json: docs(1, 50) })
  t.equal((await waitTask(url, first.body.taskUid, 60_000)).status, 'succeeded')

  gate.close()
  const held = await call(`${url}/indexes/books/documents`, { method: 'POST', json: docs(51, 50) })
  t.equal(held.status, 202, 'a task acknowledged before the disk fills')
  await until('the batch is processing', async () => ((await call(`${url}/tasks/${held.body.taskUid}`)).body.status === 'processing' ? true : undefined))
  disk.fill()

  const acknowledged = [first.body.taskUid, held.body.taskUid]
  const refused = await until('a registration refused for lack of space', async () => {
    const r = await call(`${url}/indexes/books/documents`, { method: 'POST', json: bulky(1000 + acknowledged.length) })
    if (r.status === 202) { acknowledged.push(r.body.taskUid); return undefined }
    return r
  })
  t.equal(refused.status, 422)
  t.match(refused.body, { code: 'no_space_left_on_device', type: 'system', message: 'No space left on device.' })
  const settings = await call(`${url}/indexes/books/settings`, { method: 'PATCH', json: { filterableAttributes: ['id'] } })
  t.equal(settings.body?.code, 'no_space_left_on_device', 'every registration is refused while the disk is full')

  const search = await call(`${url}/indexes/books/search`, { method: 'POST', json: { q: 'book', limit: 3 } })
  t.equal(search.status, 200, 'searches keep working')
  t.equal(search.body.hits.length, 3)
  t.equal((await call(`${url}/health`)).status, 200, '/health answers')
  gate.open()
  await until('the held batch fails to commit', async () => (/its tasks run again once the disk has room/.test(server.logs()) ? true : undefined))
  const waiting = await call(`${url}/tasks/${held.body.taskUid}`)
  t.equal(waiting.status, 200, 'task reads keep working')
  t.not(waiting.body.status, 'failed', 'the batch that cannot commit waits instead of failing')
  t.not(waiting.body.status, 'succeeded')

  disk.free()
  const pid = server.proc.pid
  for (const uid of acknowledged) {
    const task = await waitTask(url, uid, 60_000)
    t.equal(task.status, 'succeeded', `acknowledged task ${uid} succeeded`)
  }
  const after = await call(`${url}/indexes/books/documents`, { method: 'POST', json: docs(5000, 5) })
  t.equal(after.status, 202, 'writes are accepted again')
  t.equal((await waitTask(url, after.body.taskUid, 60_000)).status, 'succeeded')
  const stats = await call(`${url}/indexes/books/stats`)
  t.equal(stats.body.numberOfDocuments, 100 + (acknowledged.length - 2) + 5, 'every acknowledged document is in the index')
  t.equal(server.proc.pid, pid)
  t.equal(server.proc.exitCode, null, 'the server never restarted')
})

/**
 * Paging over HTTP against the real server: 1,000 workflows (written through the store into the data directory
 * before the server starts) paged with limit 1, 7, 100 and 250; paging while other clients create and delete
 * workflows; and cursors that outlive a restart of the server.
 */
import t from 'tap'
import { rmSync } from 'node:fs'
import { Store } from '../../../engine/storage/index.js'
import { WorkflowService } from '../../../src/workflows/service.js'
import { startServer, type TestServer } from '../../helpers/server.js'
import { sampleInput, tempPath } from './fixtures.js'

const KEY = 'paging-master-key-0123456789'
const headers = { 'x-service-api-key': KEY, 'content-type': 'application/json' }

async function get(server: TestServer, query: string): Promise<{ data: { id: string; name: string }[]; nextCursor: string | null }> {
  const res = await fetch(`${server.url}/api/v1/workflows?${query}`, { headers })
  if (res.status !== 200) throw new Error(`GET ${query}: ${res.status} ${await res.text()}`)
  return res.json() as never
}

/** Every page of `query`: the first without a cursor, the next ones with the same query and the cursor. */
async function walk(server: TestServer, query: string, between?: () => Promise<void>): Promise<string[][]> {
  const pages: string[][] = []
  let cursor: string | null = null
  do {
    const page = await get(server, cursor === null ? query : `${query}&cursor=${cursor}`)
    pages.push(page.data.map((w) => w.id))
    cursor = page.nextCursor
    if (cursor !== null && between) await between()
  } while (cursor !== null)
  return pages
}

t.test('paging over HTTP', async (t) => {
  const dbPath = tempPath()
  t.teardown(() => rmSync(dbPath, { recursive: true, force: true }))
  // The workflows go in through the store, before the server owns the database.
  const store = await Store.open(dbPath)
  const service = await WorkflowService.open(store)
  const ids = (await service.workflows.createMany(Array.from({ length: 1000 }, (_, i) => sampleInput(`seeded ${i}`)))).map((w) => w.id)
  await store.close()

  let server = await startServer({ dbPath, args: ['--master-key', KEY] })
  t.teardown(() => server.stop())

  for (const limit of [1, 7, 100, 250]) {
    const pages = await walk(server, `limit=${limit}`)
    t.same(pages.flat(), ids, `limit ${limit}: each of the 1,000 workflows exactly once, in order`)
    t.equal(pages.length, Math.ceil(1000 / limit))
  }

  // Other clients create and delete workflows while one pages through.
  const deleted = new Set<string>()
  const alive = [...ids]
  let stop = false
  const others = (async () => {
    let n = 0
    while (!stop) {
      const [victim] = alive.splice((n * 7919) % alive.length, 1)
      const created = fetch(`${server.url}/api/v1/workflows`, { method: 'POST', headers, body: JSON.stringify(sampleInput(`concurrent ${n}`)) })
      const removed = fetch(`${server.url}/api/v1/workflows/${victim}`, { method: 'DELETE', headers })
      const [c, r] = await Promise.all([created, removed])
      if (c.status !== 200 || r.status !== 200) throw new Error(`concurrent writes failed: ${c.status} ${r.status}`)
      deleted.add(victim!)
      n++
    }
  })()
  const seen = (await walk(server, 'limit=13', () => new Promise((resolve) => setTimeout(resolve, 2)))).flat()
  stop = true
  await others
  const counts = new Map<string, number>()
  for (const id of seen) counts.set(id, (counts.get(id) ?? 0) + 1)
  const survivors = ids.filter((id) => !deleted.has(id))
  t.ok(deleted.size >= 10, `${deleted.size} workflows deleted and as many created during the walk`)
  t.ok(survivors.every((id) => counts.get(id) === 1), `each of the ${survivors.length} survivors listed exactly once`)
  t.ok([...counts.values()].every((c) => c === 1), 'no workflow listed twice')

  // A cursor is good after a restart (the secret is stored), and the listing resumes where it was.
  const page = await get(server, 'limit=5&name=seeded')
  await server.stop()
  server = await startServer({ dbPath, args: ['--master-key', KEY] })
  const resumed = await get(server, `limit=5&name=seeded&cursor=${page.nextCursor}`)
  const order = survivors
  t.same([...page.data, ...resumed.data].map((w) => w.id), order.slice(0, 10), 'the next page after a restart')
})

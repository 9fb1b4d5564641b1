/**
 * Listings through the store: paging covers every workflow exactly once at every page size, paging under
 * concurrent creations and deletions neither skips nor repeats a survivor, and a page's cost does not grow with
 * how far into the listing it is. (Filters: listing-filters.test.ts.)
 */
import t from 'tap'
import { seededRandom } from '../../helpers/random.js'
import { openService, pageAll, sampleInput } from './fixtures.js'
import type { WorkflowRecord } from '../../../src/workflows/types.js'

t.test('1,000 workflows paged with limit 1, 7, 100 and 250: each exactly once, in creation order', async (t) => {
  const { service } = await openService(t)
  const created: WorkflowRecord[] = []
  for (let chunk = 0; chunk < 4; chunk++) {
    created.push(...await service.workflows.createMany(Array.from({ length: 250 }, (_, i) => sampleInput(`wf ${chunk * 250 + i}`))))
  }
  const ids = created.map((w) => w.id)
  for (const limit of [1, 7, 100, 250]) {
    const pages = await pageAll(service, {}, limit)
    t.same(pages.flat().map((w) => w.id), ids, `limit ${limit}: every workflow once, in order`)
    t.equal(pages.length, Math.ceil(1000 / limit), `limit ${limit}: ${Math.ceil(1000 / limit)} pages`)
    t.ok(pages.slice(0, -1).every((p) => p.length === limit), `limit ${limit}: full pages until the last`)
  }
  const all = await service.listing.workflowPage({}, 0, 1000)
  t.equal(all.more, false, 'a page holding the rest says there is no more')
})

t.test('paging while others create and delete: every survivor exactly once, nothing twice', async (t) => {
  const { service } = await openService(t)
  const random = seededRandom(11)
  const alive: string[] = []
  for (const [limit, filter, every] of [[7, {}, 1], [25, { name: 'start' }, 1], [1, { active: false }, 8]] as const) {
    alive.push(...(await service.workflows.createMany(Array.from({ length: 200 }, (_, i) => sampleInput(`start ${i}`)))).map((w) => w.id))
    const before = new Set(alive)
    const deleted = new Set<string>()
    const seen = new Map<string, number>()
    let pageNumber = 0
    const pages = await pageAll(service, filter, limit, async () => {
      // Between two pages (every `every` pages): creations and a deletion anywhere in the listing, concurrently.
      if (++pageNumber % every !== 0) return
      const [id] = alive.splice(random.int(alive.length), 1)
      deleted.add(id!)
      const created = service.workflows.createMany([sampleInput('start new'), sampleInput('start newer')])
      await Promise.all([created.then((ws) => alive.push(...ws.map((w) => w.id))), service.workflows.remove(id!)])
    })
    for (const w of pages.flat()) seen.set(w.id, (seen.get(w.id) ?? 0) + 1)
    const survivors = [...before].filter((id) => !deleted.has(id))
    t.ok(survivors.length > 100 && deleted.size >= 10, `limit ${limit}: ${deleted.size} deletions during the walk, ${survivors.length} survivors`)
    t.ok(survivors.every((id) => seen.get(id) === 1), `limit ${limit}: every survivor listed exactly once`)
    t.ok([...seen.values()].every((n) => n === 1), `limit ${limit}: nothing listed twice`)
  }
})

t.test("a page's cost does not depend on how far into the listing it is", async (t) => {
  const { service } = await openService(t)
  const all: WorkflowRecord[] = []
  for (let chunk = 0; chunk < 10; chunk++) {
    all.push(...await service.workflows.createMany(Array.from({ length: 500 }, (_, i) => sampleInput(`w ${i}`)), { active: chunk === 9 && true }))
  }
  // Count the index entries the listing reads.
  let read = 0
  const db = service.db
  const entries = db.entries.bind(db)
  db.entries = async (...args) => { const out = await entries(...args); read += out.length; return out }
  t.teardown(() => { db.entries = entries })

  read = 0
  await service.listing.workflowPage({}, 0, 10)
  const first = read
  read = 0
  const page = await service.listing.workflowPage({}, all[4900]!.seq, 10)
  t.same(page.items.map((w) => w.id), all.slice(4901, 4911).map((w) => w.id))
  t.ok(read <= first && read <= 32, `a page near the end read ${read} entries (the first read ${first}), not the 4,900 before it`)
  read = 0
  const active = await service.listing.workflowPage({ active: true }, 0, 10)
  t.equal(active.items[0]?.id, all[4500]!.id, 'the first active workflow comes after 4,500 inactive ones')
  t.ok(read <= 32, `a filter with an index skips the non-matching without reading them (${read} entries read)`)
})

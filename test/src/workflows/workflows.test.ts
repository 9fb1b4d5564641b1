/**
 * Workflow, tag and project writes through the store: what a write changes, n8n's refusals (activation without a
 * trigger, unknown tags, transfers), durability across a reopen, and indexes that stay exactly what the records
 * call for under concurrent writes of one workflow.
 */
import t, { type Test } from 'tap'
import { ApiError } from '../../../src/workflows/errors.js'
import { Store } from '../../../engine/storage/index.js'
import { WorkflowService } from '../../../src/workflows/service.js'
import { indexProblems, openService, sampleInput, tempPath, TRIGGER, PLAIN } from './fixtures.js'
import { seededRandom } from '../../helpers/random.js'
import { rmSync } from 'node:fs'

const rejectsWith = async (t: Test, promise: Promise<unknown>, status: number, message: string) => {
  const err = await promise.then(() => null, (e: unknown) => e)
  t.ok(err instanceof ApiError, 'an ApiError')
  t.same(err instanceof ApiError ? { status: err.status, message: err.message } : err, { status, message })
}

t.test('create, update, delete', async (t) => {
  const { service } = await openService(t)
  const created = await service.workflows.create({ ...sampleInput('First'), staticData: '{"lastId":1}' })
  t.match(created.id, /^[A-Za-z0-9]{16}$/, "n8n's id format")
  t.equal(created.active, false)
  t.equal(created.createdAt, created.updatedAt)
  t.same(created.staticData, { lastId: 1 }, 'a JSON string of static data is stored parsed')
  t.ok(created.nodes.every((n) => typeof n.id === 'string' && n.id.length === 36), 'nodes without an id get a uuid')
  t.equal(created.projectId, service.projects.personalId, 'new workflows go to the personal project')
  t.same(service.workflows.get(created.id), created)

  const updated = await service.workflows.update(created.id, { ...sampleInput('Renamed', false), pinData: { Set: [{ json: { a: 1 } }] } })
  t.equal(updated.name, 'Renamed')
  t.equal(updated.createdAt, created.createdAt)
  t.ok(updated.updatedAt > created.updatedAt, 'updatedAt moves forward')
  t.not(updated.versionId, created.versionId, 'a new versionId')
  t.equal(updated.seq, created.seq, 'the listing place stays')
  t.same(updated.pinData, { Set: [{ json: { a: 1 } }] })

  const removed = await service.workflows.remove(created.id)
  t.equal(removed.name, 'Renamed', 'delete answers the deleted workflow')
  t.equal(service.workflows.get(created.id), undefined)
  await rejectsWith(t, service.workflows.remove(created.id), 404, 'Not Found')
  await rejectsWith(t, service.workflows.update('nope', sampleInput('x')), 404, 'Not Found')
})

t.test('activation needs a node that starts the workflow', async (t) => {
  const { service } = await openService(t)
  const cases: [string, object[], number][] = [
    ['no nodes', [], 0],
    ['a manual trigger only', [{ ...PLAIN, type: 'n8n-nodes-base.manualTrigger' }], 0],
    ['n8n-nodes-base.start', [{ ...PLAIN, type: 'n8n-nodes-base.start' }], 0],
    ['a disabled trigger', [{ ...TRIGGER, disabled: true }], 0],
    ['a webhook', [{ ...PLAIN, type: 'n8n-nodes-base.webhook' }], 1],
    ['a schedule trigger and a webhook', [TRIGGER, { ...PLAIN, type: 'n8n-nodes-base.webhook' }], 2],
    ['a legacy cron', [{ ...PLAIN, type: 'n8n-nodes-base.cron' }], 1],
  ]
  for (const [label, nodes, triggers] of cases) {
    const w = await service.workflows.create({ ...sampleInput(label), nodes: nodes as never })
    if (triggers === 0) {
      await rejectsWith(t, service.workflows.activate(w.id), 400, `Workflow "${label}" (ID: ${w.id}) has no node to start the workflow - at least one trigger, poller or webhook node is required`)
      t.equal(service.workflows.get(w.id)!.active, false, `${label}: stays inactive`)
    } else {
      const active = await service.workflows.activate(w.id)
      t.equal(active.active, true, `${label}: active`)
      t.equal(active.triggerCount, triggers, `${label}: ${triggers} trigger(s)`)
      t.equal(active.updatedAt, w.updatedAt, 'activation does not change updatedAt')
      t.same(await service.workflows.activate(w.id), active, 'activating again changes nothing')
      const inactive = await service.workflows.deactivate(w.id)
      t.same([inactive.active, inactive.triggerCount], [false, 0])
    }
  }
  const live = await service.workflows.activate((await service.workflows.create(sampleInput('live'))).id)
  await rejectsWith(t, service.workflows.update(live.id, sampleInput('live', false)), 400,
    `Workflow "live" (ID: ${live.id}) has no node to start the workflow - at least one trigger, poller or webhook node is required`)
  t.same(service.workflows.get(live.id), live, 'an active workflow cannot lose its last trigger; nothing changed')
})

t.test('tags of a workflow, and deleting a tag', async (t) => {
  const opened = await openService(t)
  const { service } = opened
  const [a, b] = [await service.tags.create(' alpha '), await service.tags.create('beta')]
  t.equal(a.name, 'alpha', 'names are trimmed')
  await rejectsWith(t, service.tags.create('alpha'), 409, 'Tag already exists')
  await rejectsWith(t, service.tags.create('   '), 400, 'Tag name must be 1 to 24 characters long.')
  await rejectsWith(t, service.tags.create('x'.repeat(25)), 400, 'Tag name must be 1 to 24 characters long.')
  const w = await service.workflows.create(sampleInput('tagged'))
  t.same((await service.workflows.setTags(w.id, [a.id, b.id, a.id])).tagIds, [a.id, b.id], 'duplicates collapse')
  await rejectsWith(t, service.workflows.setTags(w.id, [a.id, 'TagDoesNotExist']), 404, 'Some tags not found')
  t.same(service.workflows.get(w.id)!.tagIds, [a.id, b.id], 'a refused update keeps the tags')

  await rejectsWith(t, service.tags.rename(b.id, 'alpha'), 409, 'Tag already exists')
  const renamed = await service.tags.rename(b.id, 'beta2')
  t.ok(renamed.updatedAt > b.updatedAt)
  t.same(service.tags.idsByNames(['beta', 'beta2']), [undefined, b.id], 'the old name is free, the new one taken')
  t.equal((await service.tags.rename(b.id, 'beta2')).name, 'beta2', 'renaming to its own name is allowed')

  t.same((await service.listing.workflowPage({ tags: ['alpha', 'beta2'] }, 0, 10)).items.map((x) => x.id), [w.id])
  await service.tags.remove(a.id)
  await rejectsWith(t, service.tags.remove(a.id), 404, 'Not Found')
  t.same((await service.listing.workflowPage({ tags: ['alpha'] }, 0, 10)).items, [], 'a deleted tag selects nothing')
  t.same((await service.listing.workflowPage({ tags: ['beta2'] }, 0, 10)).items.map((x) => x.id), [w.id])
  t.same(await indexProblems(opened), [], 'the deleted tag left no index entry behind')
  t.equal((await service.tags.create('alpha')).name, 'alpha', 'and its name is free again')
})

t.test('transfer between projects', async (t) => {
  const { service } = await openService(t)
  const team = await service.projects.create('Team')
  const w = await service.workflows.create(sampleInput('moving'))
  await rejectsWith(t, service.workflows.transfer(w.id, 'NoSuchProject123'), 404, 'Could not find project with the id "NoSuchProject123". Make sure you have the permission to create workflows in it.')
  await rejectsWith(t, service.workflows.transfer(w.id, service.projects.personalId), 400, "You can't transfer a workflow into the project that's already owning it.")
  await rejectsWith(t, service.workflows.transfer('missing', team.id), 404, 'Could not find workflow with the id "missing". Make sure you have the permission to move it.')
  t.equal((await service.workflows.transfer(w.id, team.id)).projectId, team.id)
  t.same((await service.listing.workflowPage({ projectId: team.id }, 0, 10)).items.map((x) => x.id), [w.id])
  t.same((await service.listing.workflowPage({ projectId: service.projects.personalId }, 0, 10)).items, [])
})

t.test('concurrent writes of one workflow keep its indexes exact', async (t) => {
  const opened = await openService(t)
  const { service } = opened
  const random = seededRandom(3)
  const projects = [service.projects.personalId, (await service.projects.create('P1')).id, (await service.projects.create('P2')).id]
  const tags = await Promise.all(['t1', 't2', 't3', 't4'].map((n) => service.tags.create(n)))
  const workflows = await service.workflows.createMany([sampleInput('one'), sampleInput('two')])
  const writes: Promise<unknown>[] = []
  for (let i = 0; i < 200; i++) {
    const id = workflows[random.int(2)]!.id
    const ignoreRefusals = (p: Promise<unknown>) => p.catch((e: unknown) => { if (!(e instanceof ApiError)) throw e })
    switch (random.int(5)) {
      case 0: writes.push(service.workflows.activate(id)); break
      case 1: writes.push(service.workflows.deactivate(id)); break
      case 2: writes.push(ignoreRefusals(service.workflows.transfer(id, projects[random.int(3)]!))); break
      case 3: writes.push(ignoreRefusals(service.workflows.setTags(id, tags.filter(() => random.float() < 0.5).map((tag) => tag.id)))); break
      case 4: writes.push(service.workflows.update(id, sampleInput(`v${i}`))); break
    }
    if (i === 120) writes.push(service.tags.remove(tags[0]!.id))
  }
  await Promise.all(writes)
  t.same(await indexProblems(opened), [], 'every index entry matches a record, and every record has its entries')
  t.equal(service.db.locks.size, 0, 'no lock is left held')
  for (const w of workflows) {
    const now = service.workflows.get(w.id)!
    const listed = (await service.listing.workflowPage({ active: now.active, projectId: now.projectId }, 0, 10)).items.map((x) => x.id)
    t.ok(listed.includes(w.id), 'the filters find the workflow in its final state')
  }
})

t.test('durable across a reopen; seqs keep growing after the newest is deleted', async (t) => {
  const path = tempPath()
  t.teardown(() => rmSync(path, { recursive: true, force: true }))
  let store = await Store.open(path)
  let service = await WorkflowService.open(store)
  const [first, last] = await service.workflows.createMany([sampleInput('a'), sampleInput('b')])
  const tag = await service.tags.create('kept')
  const personal = service.projects.personalId
  const secret = Buffer.from(service.db.secret)
  await service.workflows.remove(last!.id)
  await store.close()

  store = await Store.open(path)
  t.teardown(() => store.close())
  service = await WorkflowService.open(store)
  t.same(service.workflows.get(first!.id), first, 'the workflow is there after a reopen')
  t.same(service.tags.get(tag.id), tag)
  t.equal(service.projects.personalId, personal, 'the same personal project')
  t.ok(service.db.secret.equals(secret), 'the same cursor secret: cursors outlive a restart')
  const next = await service.workflows.create(sampleInput('c'))
  t.ok(next.seq > last!.seq, 'a deleted seq is never handed out again')
})

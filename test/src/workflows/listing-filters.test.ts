/**
 * The filters of the workflow listing through the store: every filter and combination (active, project, required
 * tags, a LIKE name pattern) agrees, page after page, with a reference filter over all records.
 */
import t from 'tap'
import { seededRandom } from '../../helpers/random.js'
import { openService, pageAll, sampleInput } from './fixtures.js'
import type { WorkflowFilter } from '../../../src/workflows/types.js'

/** SQL LIKE by backtracking (independent of the regex the store builds), ASCII case folding as SQLite's. */
function like(text: string, pattern: string): boolean {
  const fold = (s: string) => [...s.replace(/[A-Z]/g, (c) => c.toLowerCase())]
  const s = fold(text)
  const p = fold(pattern)
  const match = (i: number, j: number): boolean => {
    if (j === p.length) return i === s.length
    if (p[j] === '%') return match(i, j + 1) || (i < s.length && match(i + 1, j))
    return i < s.length && (p[j] === '_' || p[j] === s[i]) && match(i + 1, j + 1)
  }
  return match(0, 0)
}

t.test('every filter and combination matches a reference filter, page after page', async (t) => {
  const { service } = await openService(t)
  const random = seededRandom(7)
  const teams = [await service.projects.create('Team A'), await service.projects.create('Team B')]
  const projectIds = [service.projects.personalId, teams[0]!.id, teams[1]!.id]
  const tags = [await service.tags.create('alpha'), await service.tags.create('beta'), await service.tags.create('gamma'), await service.tags.create('delta')]
  const names = ['Sync CRM', 'sync_crm', 'Daily report', 'daily 100% done', 'Über flow', 'x_y', 'xay', 'Import', 'import ORDERS', 'Ärger']
  const inputs = Array.from({ length: 400 }, (_, i) => sampleInput(`${names[random.int(names.length)]} ${i}`))
  const seeds = inputs.map(() => ({
    projectId: projectIds[random.int(3)]!, tagIds: tags.filter(() => random.float() < 0.35).map((tag) => tag.id), active: random.float() < 0.3,
  }))
  const records = await service.workflows.createMany(inputs, seeds)
  const reference = (f: WorkflowFilter) => records.filter((w) =>
    (f.active === undefined || w.active === f.active) &&
    (f.projectId === undefined || w.projectId === f.projectId) &&
    (f.tags === undefined || (f.tags.length > 0 && f.tags.every((name) => tags.some((tag) => tag.name === name && w.tagIds.includes(tag.id))))) &&
    (f.name === undefined || like(w.name, `%${f.name}%`)))

  const actives = [undefined, true, false]
  const projects = [undefined, ...projectIds, 'NoSuchProject000']
  const tagSets = [undefined, ['alpha'], ['alpha', 'beta'], ['beta', 'alpha', 'gamma'], ['nope'], ['alpha', 'nope'], []]
  const nameFilters = [undefined, 'sync', 'SYNC_CRM', 'x_y', '100%', '%', 'über', 'ärger', 'report 1']
  let combos = 0
  for (const active of actives) for (const projectId of projects) for (const tagNames of tagSets) for (const name of nameFilters) {
    // All single filters and pairs, and a seeded sample of the rest.
    const given = [active, projectId, tagNames, name].filter((v) => v !== undefined).length
    if (given > 2 && random.float() > 0.1) continue
    const filter: WorkflowFilter = {}
    if (active !== undefined) filter.active = active
    if (projectId !== undefined) filter.projectId = projectId
    if (tagNames !== undefined) filter.tags = tagNames
    if (name !== undefined) filter.name = name
    const limit = [9, 60][combos % 2]!
    const got = (await pageAll(service, filter, limit)).flat().map((w) => w.id)
    const want = reference(filter).map((w) => w.id)
    if (JSON.stringify(got) !== JSON.stringify(want)) t.fail(`filter ${JSON.stringify(filter)}: ${got.length} listed, ${want.length} expected`)
    combos++
  }
  t.ok(combos > 120, `${combos} filter combinations agree with the reference`)
  t.ok(reference({ active: true, tags: ['alpha'] }).length > 5, 'the sample has matches to find')
})

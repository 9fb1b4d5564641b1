/**
 * Shared pieces of the workflow tests: a WorkflowService on a real Store in a temp dir, sample workflows, paging
 * through a listing in process, and an audit of the indexes against the records.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Store, decode } from '../../../engine/storage/index.js'
import { WorkflowService } from '../../../src/workflows/service.js'
import { indexesOf } from '../../../src/workflows/workflows.js'
import { layout, rangeEnd } from '../../../src/workflows/layout.js'
import type { WorkflowFilter, WorkflowInput, WorkflowRecord } from '../../../src/workflows/types.js'

export interface Opened {
  path: string
  store: Store
  service: WorkflowService
}

export function tempPath(prefix = 'tessera-workflows-'): string {
  return mkdtempSync(join(tmpdir(), prefix))
}

/** A service on a fresh Store, closed and removed at teardown (unless `path` is given: then only closed). */
export async function openService(t: { teardown(fn: () => unknown): void }, path?: string): Promise<Opened> {
  const dir = path ?? tempPath()
  const store = await Store.open(dir)
  const service = await WorkflowService.open(store)
  t.teardown(async () => {
    await store.close()
    if (!path) rmSync(dir, { recursive: true, force: true })
  })
  return { path: dir, store, service }
}

export const TRIGGER = { name: 'Schedule', type: 'n8n-nodes-base.scheduleTrigger', typeVersion: 1, position: [0, 0], parameters: {} }
export const PLAIN = { name: 'Set', type: 'n8n-nodes-base.set', typeVersion: 1, position: [200, 0], parameters: {} }

export function sampleInput(name: string, withTrigger = true): WorkflowInput {
  return { name, nodes: withTrigger ? [{ ...TRIGGER }, { ...PLAIN }] : [{ ...PLAIN }], connections: {}, settings: { executionOrder: 'v1' } }
}

/** Every page of a listing through the store, following its cursors as the route does. */
export async function pageAll(service: WorkflowService, filter: WorkflowFilter, limit: number, between?: () => Promise<void>): Promise<WorkflowRecord[][]> {
  const pages: WorkflowRecord[][] = []
  let after = 0
  for (;;) {
    const page = await service.listing.workflowPage(filter, after, limit)
    pages.push(page.items)
    if (!page.more) return pages
    after = page.items[page.items.length - 1]!.seq
    if (between) await between()
  }
}

/** Differences between the index entries in the database and the ones the records call for (none: consistent). */
export async function indexProblems(opened: Opened): Promise<string[]> {
  const records: WorkflowRecord[] = []
  const expected = new Map<string, string>()
  const prefix = layout.workflow('')
  for await (const [, value] of opened.store.scan('workflows', { gte: prefix, lt: rangeEnd(prefix) })) records.push(decode<WorkflowRecord>(value))
  for (const w of records) {
    // A deleted tag's id may linger in a record; its index entries went with the tag.
    const live = { ...w, tagIds: w.tagIds.filter((id) => opened.service.tags.get(id) !== undefined) }
    for (const index of indexesOf(live)) expected.set(layout.entry(index, w.seq).toString('hex'), w.id)
  }
  const actual = new Map<string, string>()
  for (const first of [0x02, 0x03, 0x04, 0x05]) {
    const gte = Buffer.of(first)
    for await (const [key, value] of opened.store.scan('workflows', { gte, lt: Buffer.of(first + 1) })) actual.set(key.toString('hex'), value.toString())
  }
  const problems: string[] = []
  for (const [key, id] of expected) if (actual.get(key) !== id) problems.push(`missing ${key} → ${id}`)
  for (const [key, id] of actual) if (expected.get(key) !== id) problems.push(`stray ${key} → ${id}`)
  return problems
}

/**
 * Listings in seq order, one page at a time, resumed after the last seq of the previous page (keyset paging).
 *
 * A workflow page walks the intersection of the indexes its filters select (each required tag, the project, the
 * active state; all workflows when there are none), reads the records of the candidates in batches, and keeps
 * those whose record matches every filter: the record is the truth, re-checked because a write may land between
 * the index read and the record read. The name filter has no index and is checked on the record. So a page reads
 * O(limit + entries skipped by filters), whatever the total, and its first and its 400th page cost the same.
 *
 * A page reads one item past `limit` to know whether another page follows (n8n answers a null `nextCursor` on
 * the last page); that look-ahead is also what a filter that matches nothing further costs.
 */
import type { WorkflowDb } from './db.js'
import { IndexStream, intersect } from './index-stream.js'
import { layout, type IndexRange } from './layout.js'
import { nameMatcher } from './name-pattern.js'
import type { Projects } from './projects.js'
import type { Tags } from './tags.js'
import type { Page, ProjectRecord, TagRecord, WorkflowFilter, WorkflowRecord } from './types.js'
import type { Workflows } from './workflows.js'

/** Records fetched at least this many at a time, however small the page. */
const MIN_FETCH = 16

export class Listing {
  constructor(
    private readonly db: WorkflowDb,
    private readonly workflows: Workflows,
    private readonly tags: Tags,
    private readonly projects: Projects,
  ) {}

  /** Workflows with seq > `after` matching `filter`, at most `limit`. */
  async workflowPage(filter: WorkflowFilter, after: number, limit: number): Promise<Page<WorkflowRecord>> {
    const indexes: IndexRange[] = []
    let tagIds: string[] = []
    if (filter.tags !== undefined) {
      // Every named tag is required: a name no tag has, or no name at all, leaves nothing to list.
      const ids = this.tags.idsByNames(filter.tags)
      if (ids.length === 0 || ids.some((id) => id === undefined)) return { items: [], more: false }
      tagIds = ids as string[]
      indexes.push(...tagIds.map((id) => layout.taggedWorkflows(id)))
    }
    if (filter.projectId !== undefined) indexes.push(layout.projectWorkflows(filter.projectId))
    if (filter.active !== undefined) indexes.push(layout.activeWorkflows(filter.active))
    if (indexes.length === 0) indexes.push(layout.allWorkflows())
    const nameMatches = filter.name !== undefined ? nameMatcher(filter.name) : () => true
    const matches = (w: WorkflowRecord) =>
      (filter.active === undefined || w.active === filter.active) &&
      (filter.projectId === undefined || w.projectId === filter.projectId) &&
      tagIds.every((id) => w.tagIds.includes(id)) &&
      nameMatches(w.name)
    return this.page(indexes, after, limit, (ids) => this.workflows.getMany(ids), matches)
  }

  tagPage(after: number, limit: number): Promise<Page<TagRecord>> {
    return this.page([layout.allTags()], after, limit, (ids) => this.tags.getMany(ids), () => true)
  }

  projectPage(after: number, limit: number): Promise<Page<ProjectRecord>> {
    return this.page([layout.allProjects()], after, limit, (ids) => this.projects.getMany(ids), () => true)
  }

  private async page<T extends { seq: number }>(
    indexes: IndexRange[],
    after: number,
    limit: number,
    fetch: (ids: string[]) => (T | undefined)[],
    matches: (item: T) => boolean,
  ): Promise<Page<T>> {
    const wanted = limit + 1
    const streams = indexes.map((index) => new IndexStream(this.db, index, Math.max(MIN_FETCH, wanted)))
    const items: T[] = []
    let pending: string[] = []
    const flush = () => {
      for (const item of fetch(pending)) {
        // Gone since the index was read, or changed so that it no longer matches.
        if (item !== undefined && items.length < wanted && matches(item)) items.push(item)
      }
      pending = []
    }
    for await (const entry of intersect(streams, after)) {
      pending.push(entry.id)
      if (pending.length >= Math.max(MIN_FETCH, wanted - items.length)) {
        flush()
        if (items.length >= wanted) break
      }
    }
    if (items.length < wanted) flush()
    return { items: items.slice(0, limit), more: items.length > limit }
  }
}

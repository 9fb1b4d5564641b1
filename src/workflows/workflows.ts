/**
 * Workflow records and their index entries. Every write puts the record and its entries in one atomic commit, and
 * runs under the workflow's lock from the read of the old record to the durable commit, so the entries it deletes
 * are exactly the ones the previous write put.
 */
import type { WriteOp } from '../../engine/storage/index.js'
import { stamp, type WorkflowDb } from './db.js'
import { ApiError, notFound } from './errors.js'
import { newId, newVersionId } from './ids.js'
import { layout, type IndexRange } from './layout.js'
import { lockName } from './locks.js'
import { triggersToActivate } from './triggers.js'
import type { TagRecord, WorkflowInput, WorkflowNode, WorkflowRecord, ProjectRecord } from './types.js'

/** The indexes a workflow has an entry in, each entry `prefix ‖ seq → id`. */
export function indexesOf(w: WorkflowRecord): IndexRange[] {
  return [
    layout.allWorkflows(),
    layout.activeWorkflows(w.active),
    layout.projectWorkflows(w.projectId),
    ...w.tagIds.map((tagId) => layout.taggedWorkflows(tagId)),
  ]
}

/** Options of creation that the public API does not offer (tests and the bench seed workflows with them). */
export interface SeedOptions {
  projectId?: string
  tagIds?: string[]
  active?: boolean
}

export class Workflows {
  constructor(private readonly db: WorkflowDb) {}

  get(id: string): WorkflowRecord | undefined {
    return this.db.get<WorkflowRecord>(layout.workflow(id))
  }

  getMany(ids: string[]): (WorkflowRecord | undefined)[] {
    return this.db.getMany<WorkflowRecord>(ids.map((id) => layout.workflow(id)))
  }

  /** POST /workflows: a new inactive workflow in the personal project (n8n forces `active` false). */
  async create(input: WorkflowInput): Promise<WorkflowRecord> {
    const [created] = await this.createMany([input])
    return created!
  }

  /** Create many workflows in one commit, in listing order; `options` for all of them, or one each. */
  async createMany(inputs: WorkflowInput[], seeds: SeedOptions | SeedOptions[] = {}): Promise<WorkflowRecord[]> {
    const ops: WriteOp[] = []
    const records = inputs.map((input, i) => {
      const options = Array.isArray(seeds) ? seeds[i] ?? {} : seeds
      const now = stamp()
      const record: WorkflowRecord = {
        id: newId(),
        seq: this.db.takeSeq(),
        ...content(input),
        active: false,
        isArchived: false,
        meta: null,
        triggerCount: 0,
        projectId: options.projectId ?? this.db.personalProjectId,
        sharedAt: now,
        tagIds: [...new Set(options.tagIds ?? [])],
        createdAt: now,
        updatedAt: now,
      }
      if (options.active) Object.assign(record, { active: true, triggerCount: triggersToActivate(record) })
      ops.push(...this.writeOps(undefined, record))
      return record
    })
    await this.db.commit(ops)
    return records
  }

  /** PUT /workflows/{id}: replaces the content; an active workflow stays active only if it still has a trigger. */
  update(id: string, input: WorkflowInput): Promise<WorkflowRecord> {
    return this.change(id, [], (old) => {
      const next: WorkflowRecord = { ...old, ...content(input), updatedAt: stamp(old.updatedAt) }
      if (next.active) next.triggerCount = triggersToActivate(next)
      return next
    })
  }

  /** POST /workflows/{id}/activate; a workflow already active is answered as it is. */
  activate(id: string): Promise<WorkflowRecord> {
    return this.change(id, [], (old) => (old.active ? old : { ...old, active: true, triggerCount: triggersToActivate(old) }))
  }

  deactivate(id: string): Promise<WorkflowRecord> {
    return this.change(id, [], (old) => (old.active ? { ...old, active: false, triggerCount: 0 } : old))
  }

  /** PUT /workflows/{id}/tags: the workflow's tags become exactly `tagIds` (all must exist: else 404, nothing changes). */
  setTags(id: string, tagIds: string[]): Promise<WorkflowRecord> {
    const wanted = [...new Set(tagIds)]
    // Tag locks first: a tag cannot be deleted between the check and the commit.
    return this.change(id, wanted.map((t) => lockName('tag', t)), (old) => {
      const tags = this.db.getMany<TagRecord>(wanted.map((t) => layout.tag(t)))
      if (tags.some((t) => t === undefined)) throw new ApiError(404, 'Some tags not found')
      return { ...old, tagIds: wanted }
    })
  }

  /** PUT /workflows/{id}/transfer (EnterpriseWorkflowService.transferWorkflow's checks and messages). */
  async transfer(id: string, projectId: string): Promise<WorkflowRecord> {
    return this.change(id, [], (old) => {
      if (!this.db.get<ProjectRecord>(layout.project(projectId))) {
        throw new ApiError(404, `Could not find project with the id "${projectId}". Make sure you have the permission to create workflows in it.`)
      }
      if (old.projectId === projectId) throw new ApiError(400, "You can't transfer a workflow into the project that's already owning it.")
      return { ...old, projectId, sharedAt: stamp(old.sharedAt) }
    }, () => new ApiError(404, `Could not find workflow with the id "${id}". Make sure you have the permission to move it.`))
  }

  /** DELETE /workflows/{id}: answers the deleted workflow. */
  async remove(id: string): Promise<WorkflowRecord> {
    return this.db.locks.hold([lockName('workflow', id)], async () => {
      const old = this.get(id)
      if (!old) throw notFound()
      await this.db.commit(this.writeOps(old, undefined))
      return old
    })
  }

  /**
   * Read-modify-write of one workflow under its lock (and `extraLocks`, which sort before it). `edit` returns the
   * new record (the old one itself for no change) or throws; a missing workflow is `missing()`.
   */
  private change(id: string, extraLocks: string[], edit: (old: WorkflowRecord) => WorkflowRecord, missing = notFound): Promise<WorkflowRecord> {
    return this.db.locks.hold([...extraLocks, lockName('workflow', id)], async () => {
      const old = this.get(id)
      if (!old) throw missing()
      const next = edit(old)
      if (next !== old) await this.db.commit(this.writeOps(old, next))
      return next
    })
  }

  /** The ops turning `old` (absent: a creation) into `next` (absent: a deletion): the record and the changed entries. */
  private writeOps(old: WorkflowRecord | undefined, next: WorkflowRecord | undefined): WriteOp[] {
    const id = (next ?? old)!.id
    const keysOf = (w: WorkflowRecord | undefined) => new Map((w ? indexesOf(w) : []).map((index) => {
      const key = layout.entry(index, w!.seq)
      return [key.toString('hex'), key] as const
    }))
    const before = keysOf(old)
    const after = keysOf(next)
    const ops: WriteOp[] = [next ? this.db.put(layout.workflow(id), next) : this.db.del(layout.workflow(id))]
    for (const [hex, key] of before) if (!after.has(hex)) ops.push(this.db.del(key))
    for (const [hex, key] of after) if (!before.has(hex)) ops.push(this.db.put(key, Buffer.from(id)))
    return ops
  }
}

/** The part of a record a client sets. Nodes without an id get one (n8n's addNodeIds); a JSON string of static data is parsed. */
function content(input: WorkflowInput): Pick<WorkflowRecord, 'name' | 'nodes' | 'connections' | 'settings' | 'staticData' | 'pinData' | 'versionId'> {
  const nodes: WorkflowNode[] = input.nodes.map((node) => (typeof node.id === 'string' ? node : { ...node, id: newVersionId() }))
  const staticData = typeof input.staticData === 'string' ? JSON.parse(input.staticData) as unknown : input.staticData ?? null
  return { name: input.name, nodes, connections: input.connections, settings: input.settings, staticData, pinData: input.pinData ?? null, versionId: newVersionId() }
}

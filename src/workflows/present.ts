/**
 * Records as n8n's public API shows them: the workflow entity with its `shared` owner relation and its `tags`,
 * tags as `{id, name, createdAt, updatedAt}`, projects as `{id, name, type, createdAt, updatedAt}`. Related tags
 * and projects are read in one batch per page.
 */
import type { WorkflowService } from './service.js'
import type { ProjectRecord, TagRecord, WorkflowRecord } from './types.js'

export function presentTag(tag: TagRecord) {
  return { id: tag.id, name: tag.name, createdAt: tag.createdAt, updatedAt: tag.updatedAt }
}

export function presentProject(project: ProjectRecord) {
  return { id: project.id, name: project.name, type: project.type, createdAt: project.createdAt, updatedAt: project.updatedAt }
}

export interface PresentOptions {
  /** `excludePinnedData=true`: the `pinData` field is left out (n8n deletes it from each workflow). */
  excludePinnedData?: boolean
}

export function presentWorkflows(service: WorkflowService, records: WorkflowRecord[], options: PresentOptions = {}): Record<string, unknown>[] {
  const tagIds = [...new Set(records.flatMap((w) => w.tagIds))]
  const tags = new Map<string, TagRecord>()
  service.tags.getMany(tagIds).forEach((tag) => { if (tag) tags.set(tag.id, tag) })
  const projectIds = [...new Set(records.map((w) => w.projectId))]
  const projects = new Map<string, ProjectRecord>()
  service.projects.getMany(projectIds).forEach((project) => { if (project) projects.set(project.id, project) })

  return records.map((w) => {
    const project = projects.get(w.projectId)
    const out: Record<string, unknown> = {
      id: w.id,
      name: w.name,
      active: w.active,
      isArchived: w.isArchived,
      createdAt: w.createdAt,
      updatedAt: w.updatedAt,
      nodes: w.nodes,
      connections: w.connections,
      settings: w.settings,
      staticData: w.staticData,
      meta: w.meta,
      pinData: w.pinData,
      versionId: w.versionId,
      triggerCount: w.triggerCount,
      shared: [{
        role: 'workflow:owner',
        workflowId: w.id,
        projectId: w.projectId,
        project: project ? { id: project.id, name: project.name, type: project.type } : null,
        createdAt: w.sharedAt,
        updatedAt: w.sharedAt,
      }],
      // Ids of deleted tags may linger in a record until it is next written: they name nothing and are skipped.
      tags: w.tagIds.flatMap((id) => { const tag = tags.get(id); return tag ? [presentTag(tag)] : [] }),
    }
    if (options.excludePinnedData) delete out.pinData
    return out
  })
}

export function presentWorkflow(service: WorkflowService, record: WorkflowRecord, options: PresentOptions = {}): Record<string, unknown> {
  return presentWorkflows(service, [record], options)[0]!
}

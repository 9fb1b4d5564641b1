/**
 * The workflow routes of n8n's public API (handlers/workflows/workflows.handler.ts), over the workflow store.
 * `GET /workflows` pages with Tessera's keyset cursors (cursor.ts); everything else answers as n8n does: the
 * workflow object (200, also for POST and DELETE), `{message: 'Not Found'}` (404) for an unknown id.
 */
import { json } from '../http/json.js'
import type { Response } from '../http/types.js'
import { WORKFLOW_SCHEMA, TAG_IDS_SCHEMA, TRANSFER_SCHEMA } from './bodies.js'
import { ApiError, notFound } from './errors.js'
import type { Operation, OperationInput } from './operation.js'
import { presentTag, presentWorkflow, presentWorkflows } from './present.js'
import type { Schema } from './schema.js'
import { CURSOR_SCHEMA, LIMIT_SCHEMA, pageReply, pageStart } from './paging.js'
import type { WorkflowService } from './service.js'
import type { JsonObject, WorkflowFilter, WorkflowInput, WorkflowNode, WorkflowRecord } from './types.js'

const EXCLUDE_PINNED: Schema = { type: 'boolean' }

/** WorkflowEntity's name column: 1 to 128 characters, checked with this message. */
const NAME_MAX = 128

/** `tags=a, b` → `['a', 'b']` (n8n's parseTagNames trims each name; empty names are dropped). */
function tagNames(text: string): string[] {
  return text.split(',').map((t) => t.trim()).filter((t) => t !== '')
}

export function filterOf(query: OperationInput['query']): WorkflowFilter {
  const filter: WorkflowFilter = {}
  if (typeof query.active === 'boolean') filter.active = query.active
  if (typeof query.tags === 'string') filter.tags = tagNames(query.tags)
  if (typeof query.name === 'string') filter.name = query.name.trim()
  if (typeof query.projectId === 'string') filter.projectId = query.projectId
  return filter
}

/** The query a cursor belongs to: the same filters in any spelling give the same scope. */
export function scopeOf(filter: WorkflowFilter): string {
  const tags = filter.tags ? [...new Set(filter.tags)].sort() : null
  return JSON.stringify([filter.active ?? null, tags, filter.name ?? null, filter.projectId ?? null])
}

async function listWorkflows(input: OperationInput): Promise<Response> {
  const { query, service } = input
  const filter = filterOf(query)
  const scope = scopeOf(filter)
  const { after, limit } = pageStart(input, 'workflows', scope)
  const page = await service.listing.workflowPage(filter, after, limit)
  const data = presentWorkflows(service, page.items, { excludePinnedData: query.excludePinnedData === true })
  return pageReply(input, 'workflows', scope, page, limit, data)
}

/** The validated body as the store's input. */
function inputOf(body: unknown): WorkflowInput {
  const b = body as JsonObject
  const name = b.name as string
  if (name.length < 1 || name.length > NAME_MAX) throw new ApiError(400, `Workflow name must be 1 to ${NAME_MAX} characters long.`)
  const input: WorkflowInput = { name, nodes: b.nodes as WorkflowNode[], connections: b.connections as JsonObject, settings: b.settings as JsonObject }
  if (b.staticData !== undefined) input.staticData = b.staticData
  if (b.pinData !== undefined) input.pinData = b.pinData as JsonObject | null
  return input
}

const found = (service: WorkflowService, id: string): WorkflowRecord => {
  const workflow = service.workflows.get(id)
  if (!workflow) throw notFound()
  return workflow
}

const answer = (service: WorkflowService, workflow: WorkflowRecord) => json(200, presentWorkflow(service, workflow))

const tagsOf = (service: WorkflowService, workflow: WorkflowRecord) =>
  json(200, service.tags.getMany(workflow.tagIds).flatMap((tag) => (tag ? [presentTag(tag)] : [])))

export const WORKFLOW_OPERATIONS: Operation[] = [
  {
    method: 'GET', path: '/workflows', action: 'workflows.list',
    query: { active: { type: 'boolean' }, tags: { type: 'string' }, name: { type: 'string' }, projectId: { type: 'string' }, excludePinnedData: EXCLUDE_PINNED, limit: LIMIT_SCHEMA, cursor: CURSOR_SCHEMA },
    run: listWorkflows,
  },
  {
    method: 'POST', path: '/workflows', action: 'workflows.create', body: WORKFLOW_SCHEMA,
    run: async ({ body, service }) => answer(service, await service.workflows.create(inputOf(body))),
  },
  {
    method: 'GET', path: '/workflows/:id', action: 'workflows.get', query: { excludePinnedData: EXCLUDE_PINNED },
    run: async ({ params, query, service }) => json(200, presentWorkflow(service, found(service, params.id!), { excludePinnedData: query.excludePinnedData === true })),
  },
  {
    method: 'PUT', path: '/workflows/:id', action: 'workflows.update', body: WORKFLOW_SCHEMA,
    run: async ({ params, body, service }) => answer(service, await service.workflows.update(params.id!, inputOf(body))),
  },
  {
    method: 'DELETE', path: '/workflows/:id', action: 'workflows.delete',
    run: async ({ params, service }) => answer(service, await service.workflows.remove(params.id!)),
  },
  {
    method: 'POST', path: '/workflows/:id/activate', action: 'workflows.activate',
    run: async ({ params, service }) => answer(service, await service.workflows.activate(params.id!)),
  },
  {
    method: 'POST', path: '/workflows/:id/deactivate', action: 'workflows.activate',
    run: async ({ params, service }) => answer(service, await service.workflows.deactivate(params.id!)),
  },
  {
    method: 'GET', path: '/workflows/:id/tags', action: 'workflows.tags.get',
    run: async ({ params, service }) => tagsOf(service, found(service, params.id!)),
  },
  {
    method: 'PUT', path: '/workflows/:id/tags', action: 'workflows.tags.update', body: TAG_IDS_SCHEMA,
    run: async ({ params, body, service }) => {
      const ids = (body as { id: string }[]).map((tag) => tag.id)
      return tagsOf(service, await service.workflows.setTags(params.id!, ids))
    },
  },
  {
    method: 'PUT', path: '/workflows/:id/transfer', action: 'workflows.transfer', body: TRANSFER_SCHEMA,
    run: async ({ params, body, service }) => {
      await service.workflows.transfer(params.id!, (body as { destinationProjectId: string }).destinationProjectId)
      return { status: 204 }
    },
  },
]

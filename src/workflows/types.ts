/**
 * The workflow store's glossary: what is stored (records) and what a listing asks for (filters). The shapes the
 * public API answers with (n8n's workflow, tag and project objects) are built from these in present.ts.
 */

/** A JSON object as sent by a client (nodes, connections, settings, pinned data, ...). */
export type JsonObject = { [key: string]: unknown }

/** One node of a workflow, as n8n's node schema describes it; only `id`, `type` and `disabled` mean anything here. */
export interface WorkflowNode extends JsonObject {
  id?: string
  name?: string
  type?: string
  disabled?: boolean
}

/**
 * A stored workflow. `seq` is its place in the listing order: given once at creation from a counter that only
 * grows, never changed, never reused, so a cursor "after seq s" keeps meaning the same set of workflows however
 * many are created, updated or deleted in between.
 */
export interface WorkflowRecord {
  id: string
  seq: number
  name: string
  active: boolean
  isArchived: boolean
  nodes: WorkflowNode[]
  connections: JsonObject
  settings: JsonObject
  /** Whatever JSON the client sent (a `jsonString` is parsed on the way in); null when none. */
  staticData: unknown
  meta: JsonObject | null
  pinData: JsonObject | null
  /** A uuid, new on every change of the workflow's content (n8n's optimistic-locking token). */
  versionId: string
  /** Trigger nodes that are live: their count while active, 0 while inactive. */
  triggerCount: number
  /** The project owning the workflow (n8n's `shared[0]` with role `workflow:owner`). */
  projectId: string
  /** When the workflow came into its project (creation or the last transfer). */
  sharedAt: string
  /** Tag ids in the order they were set. A deleted tag's id may linger until the next write; readers skip it. */
  tagIds: string[]
  createdAt: string
  updatedAt: string
}

/** What a client may set on a workflow (POST and PUT bodies, after validation). */
export interface WorkflowInput {
  name: string
  nodes: WorkflowNode[]
  connections: JsonObject
  settings: JsonObject
  staticData?: unknown
  pinData?: JsonObject | null
}

export interface TagRecord {
  id: string
  seq: number
  name: string
  createdAt: string
  updatedAt: string
}

export type ProjectType = 'personal' | 'team'

export interface ProjectRecord {
  id: string
  seq: number
  name: string
  type: ProjectType
  createdAt: string
  updatedAt: string
}

/**
 * The filters of `GET /workflows`, normalized: `tags` are tag names that must all be on a workflow (n8n splits
 * the parameter on commas and trims each name), `name` is a SQL LIKE pattern matched anywhere in the name
 * (n8n: `LIKE '%' || trim(name) || '%'`), `projectId` is the owning project.
 */
export interface WorkflowFilter {
  active?: boolean
  tags?: string[]
  name?: string
  projectId?: string
}

/** One page of a listing: the records in listing order, and whether anything matching comes after the last. */
export interface Page<T> {
  items: T[]
  more: boolean
}

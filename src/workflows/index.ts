/**
 * Area D: an n8n-style public workflow API (`/api/v1/workflows`, tags, projects) with keyset cursor pagination,
 * stored in the `workflows` column family of the engine's Store.
 *
 * The server registers the routes (`workflowRoutes(router)` in buildRouter) and may pass the key system's
 * `ServiceKeyCheck`; tests and the bench use `WorkflowService` directly on a Store.
 */
export { workflowRoutes, API_PREFIX, OPERATIONS, type WorkflowRouteOptions } from './routes.js'
export { WORKFLOW_ACTIONS, API_KEY_HEADER, masterKeyCheck, type WorkflowAction, type ServiceKeyCheck, type KeyVerdict } from './auth.js'
export { WorkflowService, serviceFor } from './service.js'
export { presentWorkflows, presentWorkflow, presentTag, presentProject } from './present.js'
export type { WorkflowRecord, WorkflowInput, WorkflowFilter, TagRecord, ProjectRecord, Page } from './types.js'

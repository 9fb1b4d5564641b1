/**
 * The workflow API's routes under `/api/v1` (area D): the operations of workflow-routes.ts, tag-routes.ts and
 * project-routes.ts, each with the API-key action it needs (`X-SERVICE-API-KEY`: the handler checks the key in
 * n8n's order, a missing or wrong key before validation and the action after it). Every other method on those
 * paths answers as n8n's validator does, before any key: 405 `{message: '<METHOD> method not allowed'}` with an
 * `Allow` header.
 */
import { open, route, serviceKey, type Route } from '../http/router.js'
import { masterKeyCheck, type ServiceKeyCheck } from './auth.js'
import { errorReply, perform, type Operation, type WorkflowServerContext } from './operation.js'
import { PROJECT_OPERATIONS } from './project-routes.js'
import { TAG_OPERATIONS } from './tag-routes.js'
import { WORKFLOW_OPERATIONS } from './workflow-routes.js'

export const API_PREFIX = '/api/v1'

export const OPERATIONS: readonly Operation[] = [...WORKFLOW_OPERATIONS, ...TAG_OPERATIONS, ...PROJECT_OPERATIONS]

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const

export interface WorkflowRouteOptions {
  /** Who may do what; by default the master key alone when there is one, everyone when there is none. */
  keyCheck?: ServiceKeyCheck
}

export function workflowRoutes<C extends WorkflowServerContext>(options: WorkflowRouteOptions = {}): Route<C>[] {
  let keyCheck = options.keyCheck
  const byPath = new Map<string, Operation[]>()
  for (const op of OPERATIONS) byPath.set(op.path, [...(byPath.get(op.path) ?? []), op])
  const routes: Route<C>[] = []
  for (const [path, ops] of byPath) {
    const allow = ops.map((op) => op.method).join(', ')
    for (const method of METHODS) {
      const op = ops.find((o) => o.method === method)
      routes.push(op
        ? route<C>(method, API_PREFIX + path, serviceKey(op.action), (ctx) => perform(op, ctx, ctx.serviceKeyCheck ?? (keyCheck ??= masterKeyCheck(ctx.config.masterKey))))
        : route<C>(method, API_PREFIX + path, open, () => errorReply(405, `${method} method not allowed`, { allow })))
    }
  }
  return routes
}

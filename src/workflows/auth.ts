/**
 * API keys of the workflow API. Requests carry the key in `X-SERVICE-API-KEY` (Tessera's name for n8n's
 * `X-N8N-API-KEY`); each route needs one action (the list below). Deciding whether a key may perform an action
 * belongs to the service's key system; this folder depends only on `ServiceKeyCheck`, and `masterKeyCheck` is
 * the decision the server makes until that system is wired in.
 *
 * Answers, as n8n gives them (its API validator's security check, then the route's scope check):
 * - no key (or an empty one): 401 `'X-SERVICE-API-KEY' header required`;
 * - a key that is not valid: 401 `unauthorized`;
 * - a valid key without the route's action: 403 `Forbidden`, decided after the request is validated (in n8n the
 *   scope check is the route's first handler, after the validator).
 */
import { timingSafeEqual, createHash } from 'node:crypto'

export const API_KEY_HEADER = 'X-SERVICE-API-KEY'

/**
 * The actions of the workflow API, for API keys' `actions` (Meilisearch-style `/keys`). A key system should also
 * grant `workflows.*` (every `workflows.` action), `tags.*`, `projects.*` and `*`.
 */
export const WORKFLOW_ACTIONS = [
  'workflows.list', // GET /workflows
  'workflows.get', // GET /workflows/{id}
  'workflows.create', // POST /workflows
  'workflows.update', // PUT /workflows/{id}
  'workflows.delete', // DELETE /workflows/{id}
  'workflows.activate', // POST /workflows/{id}/activate and /deactivate
  'workflows.transfer', // PUT /workflows/{id}/transfer
  'workflows.tags.get', // GET /workflows/{id}/tags
  'workflows.tags.update', // PUT /workflows/{id}/tags
  'tags.list', // GET /tags
  'tags.get', // GET /tags/{id}
  'tags.create', // POST /tags
  'tags.update', // PUT /tags/{id}
  'tags.delete', // DELETE /tags/{id}
  'projects.list', // GET /projects
  'projects.create', // POST /projects
] as const

export type WorkflowAction = (typeof WORKFLOW_ACTIONS)[number]

export type KeyVerdict = 'ok' | 'missing' | 'invalid' | 'forbidden'

/**
 * Whether the key a request carries (undefined when there is none, or it is empty) may perform `action`:
 * `missing` when a key is needed and none was given, `invalid` for a key the service does not know (or an
 * expired one), `forbidden` for a valid key without the action.
 */
export type ServiceKeyCheck = (key: string | undefined, action: WorkflowAction) => KeyVerdict | Promise<KeyVerdict>

/**
 * The check while API keys are not implemented: with a master key, the master key is the only valid key and may
 * do everything; without one, every request is allowed (as every other route of Tessera is open then).
 */
export function masterKeyCheck(masterKey: string | null): ServiceKeyCheck {
  if (masterKey === null) return () => 'ok'
  // Compare digests: equal lengths for timingSafeEqual, and the key's length does not leak through timing.
  const expected = createHash('sha256').update(masterKey).digest()
  return (key) => {
    if (key === undefined) return 'missing'
    return timingSafeEqual(createHash('sha256').update(key).digest(), expected) ? 'ok' : 'invalid'
  }
}

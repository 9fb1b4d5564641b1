/**
 * Area A's entries in the service's route table: every `/api/...` path, handed to `handleApiRequest` (routes.ts).
 * The endpoints, operations and access checks behind it (about 30 modules) load with the first `/api` request, not
 * at start-up: most servers never serve the auth collections.
 */
import { collections, route, type Route } from '../../http/router.js'
import type { Request } from '../../http/types.js'
import type { AuthService } from '../service.js'

/** How deep a path under `/api` the catch-all registration reaches (Payload's deepest: `/api/<slug>/access/<id>`, and more for unknown paths). */
const MAX_DEPTH = 8

/**
 * The routes that hand `/api/...` to `handleApiRequest`: `/api` followed by up to MAX_DEPTH segments, for each
 * method. They sit outside the engine's API keys (`collections`): the collections authenticate with their own
 * tokens, as Payload does.
 */
export function authRoutes<C extends { collections: AuthService }>(): Route<C>[] {
  const handler = async ({ collections, req }: C & { req: Request }) => (await import('./routes.js')).handleApiRequest(collections, req)
  const routes: Route<C>[] = []
  for (const method of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE']) {
    for (let depth = 0; depth <= MAX_DEPTH; depth++) {
      routes.push(route<C>(method, '/api' + Array.from({ length: depth }, (_, i) => `/:p${i}`).join(''), collections, handler))
    }
  }
  return routes
}

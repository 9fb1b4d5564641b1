/** `/indexes/{uid}/documents` and its sub-routes. */
import type { AppRouter } from './context.js'

export function documentRoutes(router: AppRouter): void {
  void router
}

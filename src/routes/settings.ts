/** STUB — the settings helper writes `/indexes/{uid}/settings` and every sub-route here. */
import type { AppRouter } from './context.js'

export function settingsRoutes(router: AppRouter): void {
  void router
}

/** STUB — the features helper writes `GET/PATCH /experimental-features` here. */
import type { AppRouter } from './context.js'

export function featureRoutes(router: AppRouter): void {
  void router
}

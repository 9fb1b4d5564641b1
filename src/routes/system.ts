/** `/health`, `/version`, `/stats`. */
import { json } from '../http/json.js'
import { VERSION } from '../version.js'
import type { AppRouter } from './context.js'

export function systemRoutes(router: AppRouter): void {
  router
    .on('GET', '/health', () => json(200, { status: 'available' }))
    .on('GET', '/version', () => json(200, { commitSha: VERSION.commitSha, commitDate: VERSION.commitDate, pkgVersion: VERSION.pkgVersion }))
    .on('GET', '/stats', ({ engine }) => json(200, engine.globalStats()))
}

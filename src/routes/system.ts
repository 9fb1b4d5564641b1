/** `/health`, `/version`, `/stats`. */
import { globalStats } from '../../engine/index.js'
import { json } from '../http/json.js'
import { key, open, route } from '../http/router.js'
import { VERSION } from '../version.js'
import type { AppContext, AppRoute } from './context.js'

export const systemRoutes: AppRoute[] = [
  route<AppContext>('GET', '/health', open, () => json(200, { status: 'available' })),
  route<AppContext>('GET', '/version', key('version'), () => json(200, { commitSha: VERSION.commitSha, commitDate: VERSION.commitDate, pkgVersion: VERSION.pkgVersion })),
  route<AppContext>('GET', '/stats', key('stats.get'), async ({ engine, auth }) => json(200, await globalStats(engine, auth.indexScope))),
]

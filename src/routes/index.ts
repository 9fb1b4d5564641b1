/**
 * The route table: every route of the service with the access it requires (see `Access` in http/router.ts).
 * A route missing here does not exist; a route here cannot forget its access check.
 */
import { systemRoutes } from './system.js'
import { taskRoutes } from './tasks.js'
import { indexRoutes } from './indexes.js'
import { documentRoutes } from './documents.js'
import { searchRoutes } from './search.js'
import { settingsRoutes } from './settings.js'
import { featureRoutes } from './features.js'
import { networkRoutes } from './network.js'
import { shardTransferRoutes } from './shard-transfer.js'
import { keyRoutes } from './keys.js'
import { dumpRoutes } from './dumps.js'
import { previewRoutes } from './preview.js'
import { renderRoutes } from './render-template.js'
// The route declarations only: the workflow store loads on first use (workflows/operation.ts).
import { workflowRoutes } from '../workflows/routes.js'
// The catch-all declarations only: the auth collections' endpoints load with the first /api request.
import { authRoutes } from '../auth/rest/api-routes.js'
import type { AppContext, AppRoute } from './context.js'

export const ROUTES: readonly AppRoute[] = [
  ...systemRoutes,
  ...taskRoutes,
  ...indexRoutes,
  ...documentRoutes,
  ...searchRoutes,
  ...settingsRoutes,
  ...featureRoutes,
  ...networkRoutes,
  ...shardTransferRoutes,
  ...keyRoutes,
  ...dumpRoutes,
  ...renderRoutes,
  ...previewRoutes,
  ...workflowRoutes<AppContext>(),
  ...authRoutes<AppContext>(),
]

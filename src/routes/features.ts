/** `GET /experimental-features` and `PATCH /experimental-features`: synchronous (no task), `200` with the features object. */
import { json } from '../http/json.js'
import { key, route } from '../http/router.js'
import { parseFeaturesPatch } from '../api/features.js'
import type { AppContext, AppRoute } from './context.js'

export const featureRoutes: AppRoute[] = [
  route<AppContext>('GET', '/experimental-features', key('experimental.get'), ({ engine }) => json(200, engine.features.view())),
  route<AppContext>('PATCH', '/experimental-features', key('experimental.update'), async ({ engine, body }) => json(200, await engine.features.patch(parseFeaturesPatch(await body())))),
]

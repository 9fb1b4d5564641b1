/**
 * `GET /network`, `PATCH /network` (synchronous: `200` with the network object, no task) and `POST /network/control`,
 * all behind the `network` experimental feature, as in Meilisearch's Community Edition. The body is validated
 * before the feature is checked, since Meilisearch extracts it before its handler runs.
 */
import { json } from '../http/json.js'
import { key, route } from '../http/router.js'
import { parseNetworkPatch } from '../api/network.js'
import { TesseraError, updateNetwork } from '../../engine/index.js'
import type { AppContext, AppRoute } from './context.js'

const ACTION = 'Using the /network route'

export const networkRoutes: AppRoute[] = [
  route<AppContext>('GET', '/network', key('network.get'), ({ engine }) => {
    engine.features.require('network', ACTION)
    return json(200, engine.network.view())
  }),
  route<AppContext>('PATCH', '/network', key('network.update'), async ({ engine, body }) => {
    const patch = parseNetworkPatch(await body())
    engine.features.require('network', ACTION)
    return json(200, await updateNetwork(engine, patch))
  }),
  // The route instances of an Enterprise network use to tell each other about topology changes.
  route<AppContext>('POST', '/network/control', key('network.update'), ({ engine }) => {
    engine.features.require('network', ACTION)
    throw new TesseraError('requires_enterprise_edition', 'Meilisearch Enterprise Edition is required to call this route')
  }),
]

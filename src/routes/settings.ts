/**
 * `/indexes/{uid}/settings` (GET, PATCH, DELETE) and every sub-route `/indexes/{uid}/settings/<name>` with
 * Meilisearch's verbs: GET, the update verb (PUT for lists and single values; PATCH for typo-tolerance, faceting,
 * pagination, embedders and chat) and DELETE (resets that field). Updates answer 202 with a `settingsUpdate`
 * task; a PATCH of the whole settings (or an update of a sub-route) creates a missing index, a DELETE does not.
 * As in Meilisearch, the body is read and validated before the index uid.
 */
import {
  SUB_ROUTES, resetAllUpdate, resetFieldUpdate, settingsFieldView, settingsView, validateSettings,
} from '../../engine/settings/index.js'
import { json } from '../http/json.js'
import { indexUidFromPath } from '../validation/index-uid.js'
import type { AppRouter } from './context.js'

export function settingsRoutes(router: AppRouter): void {
  router
    .on('GET', '/indexes/:uid/settings', ({ engine, params }) => {
      const uid = indexUidFromPath(params.uid!)
      return json(200, settingsView(engine.getSettings(uid), { chat: engine.features.isEnabled('chatCompletions') }))
    })
    .on('PATCH', '/indexes/:uid/settings', async ({ engine, params, body }) => {
      const update = validateSettings(await body(), null, engine.features)
      const uid = indexUidFromPath(params.uid!)
      return json(202, await engine.updateSettings(uid, update))
    })
    .on('DELETE', '/indexes/:uid/settings', async ({ engine, params }) => {
      const uid = indexUidFromPath(params.uid!)
      return json(202, await engine.updateSettings(uid, resetAllUpdate()))
    })

  for (const { route, field, verb } of SUB_ROUTES) {
    const path = `/indexes/:uid/settings/${route}`
    router
      .on('GET', path, ({ engine, params }) => {
        const uid = indexUidFromPath(params.uid!)
        return json(200, settingsFieldView(engine.getSettings(uid), field))
      })
      .on(verb, path, async ({ engine, params, body }) => {
        const update = validateSettings(await body(), route, engine.features)
        const uid = indexUidFromPath(params.uid!)
        return json(202, await engine.updateSettings(uid, update))
      })
      .on('DELETE', path, async ({ engine, params }) => {
        const uid = indexUidFromPath(params.uid!)
        return json(202, await engine.updateSettings(uid, resetFieldUpdate(field)))
      })
  }
}

/**
 * `/indexes/{uid}/settings` (GET, PATCH, DELETE) and every sub-route `/indexes/{uid}/settings/<name>` with
 * Meilisearch's verbs: GET, the update verb (PUT for lists and single values; PATCH for the object settings) and
 * DELETE (resets that field). Updates answer 202 with a `settingsUpdate` task; a PATCH of the whole settings (or an
 * update of a sub-route) creates a missing index, a DELETE does not. As in Meilisearch, the body is read and
 * validated before the index uid.
 */
import { getSettings, updateSettings } from '../../engine/index.js'
import { resetAllUpdate, resetFieldUpdate, settingsFieldView, settingsView, type SettingsField, type SettingsUpdate } from '../../engine/settings/index.js'
import type { Grant } from '../keys/grant.js'
import { json } from '../http/json.js'
import { key, route } from '../http/router.js'
import { SUB_ROUTES, validateSettings } from '../api/settings.js'
import { indexUidFromPath } from '../api/index-uid.js'
import type { AppContext, AppRoute } from './context.js'

/** An update by a key that may not create `uid`: its task fails with `index_not_found` if the index is missing. */
function creatingAs(update: SettingsUpdate, auth: Grant, uid: string): SettingsUpdate {
  return auth.allowIndexCreation(uid) ? update : { ...update, __denyIndexCreation: true }
}

/** The settings Meilisearch updates with PATCH (objects merged into the stored ones); the others take PUT. */
const PATCHED: ReadonlySet<SettingsField> = new Set<SettingsField>(['typoTolerance', 'faceting', 'pagination', 'embedders', 'chat'])

export const settingsRoutes: AppRoute[] = [
  route<AppContext>('GET', '/indexes/:uid/settings', key('settings.get'), ({ engine, params }) => {
    const settings = getSettings(engine, indexUidFromPath(params.uid!))
    return json(200, settingsView(settings, { chat: engine.features.isEnabled('chatCompletions'), foreignKeys: engine.features.isEnabled('foreignKeys') }))
  }),
  route<AppContext>('PATCH', '/indexes/:uid/settings', key('settings.update'), async ({ engine, params, body, auth }) => {
    const update = validateSettings(await body(), null, engine.features)
    const uid = indexUidFromPath(params.uid!)
    return json(202, await updateSettings(engine, uid, creatingAs(update, auth, uid)))
  }),
  route<AppContext>('DELETE', '/indexes/:uid/settings', key('settings.update'), async ({ engine, params }) => json(202, await updateSettings(engine, indexUidFromPath(params.uid!), resetAllUpdate()))),
  ...SUB_ROUTES.flatMap(({ route: name, field }): AppRoute[] => {
    const path = `/indexes/:uid/settings/${name}`
    return [
      route<AppContext>('GET', path, key('settings.get'), ({ engine, params }) => json(200, settingsFieldView(getSettings(engine, indexUidFromPath(params.uid!)), field))),
      route<AppContext>(PATCHED.has(field) ? 'PATCH' : 'PUT', path, key('settings.update'), async ({ engine, params, body, auth }) => {
        const update = validateSettings(await body(), name, engine.features)
        const uid = indexUidFromPath(params.uid!)
        return json(202, await updateSettings(engine, uid, creatingAs(update, auth, uid)))
      }),
      route<AppContext>('DELETE', path, key('settings.update'), async ({ engine, params }) => json(202, await updateSettings(engine, indexUidFromPath(params.uid!), resetFieldUpdate(field)))),
    ]
  }),
]

/**
 * `POST /render-template`: renders a document template on a document (see engine/operations/render-template.ts).
 * Meilisearch asks for both `settings.get` and `documents.get`; Tessera's routes declare one action, and this one
 * takes `settings.get` alone (a key holding it without `documents.get` is let through: a known difference). A key
 * restricted to some indexes may name only those.
 */
import { renderTemplate } from '../../engine/operations/render-template.js'
import { json } from '../http/json.js'
import { key, route } from '../http/router.js'
import { parseRenderQuery } from '../api/render-template.js'
import { invalidApiKey } from '../keys/guard.js'
import type { AppContext, AppRoute } from './context.js'

export const renderRoutes: AppRoute[] = [
  route<AppContext>('POST', '/render-template', key('settings.get'), async ({ engine, body, auth }) => {
    const query = parseRenderQuery(await body())
    for (const uid of [query.template.indexUid, query.input?.indexUid]) if (uid !== undefined && !auth.isIndexAuthorized(uid)) throw invalidApiKey()
    return json(200, renderTemplate(engine, query))
  }),
]

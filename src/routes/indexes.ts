/**
 * `/indexes`, `/indexes/{uid}`, `/indexes/{uid}/compact`, `/indexes/{uid}/stats`, `/indexes/{uid}/fields` and `/swap-indexes`. An
 * index-restricted key lists only the indexes it allows, and may name no other index in a creation, a rename or a
 * swap (`invalid_api_key`, checked after the body, as Meilisearch does).
 */
import { compactIndex, createIndex, deleteIndex, getIndex, indexStats, listFields, listIndexes, swapIndexes, updateIndex } from '../../engine/index.js'
import { json } from '../http/json.js'
import { key, route } from '../http/router.js'
import { parseCreateIndex, parseIndexPage, parseSwaps, parseUpdateIndex } from '../api/indexes.js'
import { parseFieldsBody } from '../api/fields.js'
import { indexUidFromPath } from '../api/index-uid.js'
import { invalidApiKey } from '../keys/guard.js'
import type { AppContext, AppRoute } from './context.js'

export const indexRoutes: AppRoute[] = [
  route<AppContext>('GET', '/indexes', key('indexes.get'), ({ engine, req, auth }) => {
    const { offset, limit } = parseIndexPage(req.rawQuery)
    return json(200, listIndexes(engine, offset, limit, auth.indexScope))
  }),
  route<AppContext>('POST', '/indexes', key('indexes.create'), async ({ engine, body, auth }) => {
    const { uid, primaryKey } = parseCreateIndex(await body())
    if (!auth.allowIndexCreation(uid)) throw invalidApiKey()
    return json(202, await createIndex(engine, uid, primaryKey))
  }),
  route<AppContext>('GET', '/indexes/:uid', key('indexes.get'), ({ engine, params }) => json(200, getIndex(engine, indexUidFromPath(params.uid!)))),
  route<AppContext>('PATCH', '/indexes/:uid', key('indexes.update'), async ({ engine, params, body, auth }) => {
    const uid = indexUidFromPath(params.uid!)
    const { primaryKey, newUid } = parseUpdateIndex(await body())
    if (newUid !== null && !auth.isIndexAuthorized(newUid)) throw invalidApiKey()
    return json(202, await updateIndex(engine, uid, primaryKey, newUid))
  }),
  route<AppContext>('DELETE', '/indexes/:uid', key('indexes.delete'), async ({ engine, params }) => json(202, await deleteIndex(engine, indexUidFromPath(params.uid!)))),
  route<AppContext>('POST', '/indexes/:uid/compact', key('indexes.compact'), async ({ engine, params }) => json(202, await compactIndex(engine, indexUidFromPath(params.uid!)))),
  route<AppContext>('GET', '/indexes/:uid/stats', key('stats.get'), async ({ engine, params }) => json(200, await indexStats(engine, indexUidFromPath(params.uid!)))),
  route<AppContext>('POST', '/indexes/:uid/fields', key('fields.post'), async ({ engine, params, body }) => {
    const uid = indexUidFromPath(params.uid!)
    return json(200, listFields(engine, uid, parseFieldsBody(await body())))
  }),
  route<AppContext>('POST', '/swap-indexes', key('indexes.swap'), async ({ engine, body, auth }) => {
    const swaps = parseSwaps(await body())
    for (const { indexes } of swaps) if (!indexes.every((uid) => auth.isIndexAuthorized(uid))) throw invalidApiKey()
    return json(202, await swapIndexes(engine, swaps))
  }),
]

/**
 * `/keys` and `/keys/{uidOrKey}`: list (newest first, `offset`/`limit`), create (201), get, update (name and
 * description only) and delete (204). A key is named by its uid or by its value. Without a master key every one
 * of them answers `missing_master_key` (the guard does that).
 */
import { formatMicros } from '../../engine/tasks/time.js'
import { json } from '../http/json.js'
import { key, route } from '../http/router.js'
import { parseCreateKey, parseKeyPage, parsePatchKey } from '../api/keys.js'
import { decodePathSegment } from '../api/index-uid.js'
import { formatExpiry } from '../keys/expiry.js'
import type { KeyStore, LoadedKey } from '../keys/key-store.js'
import type { AppContext, AppRoute } from './context.js'

/** A key as the API shows it, in Meilisearch's field order (`KeyView`), with its value derived from the master key. */
export function keyView(keys: KeyStore, k: LoadedKey) {
  return {
    name: k.name,
    description: k.description,
    key: keys.valueOf(k.uid),
    uid: k.uid,
    actions: k.actions,
    indexes: k.indexes,
    expiresAt: k.expiresAt === null ? null : formatExpiry(k.expiresAt),
    createdAt: formatMicros(k.createdAt),
    updatedAt: formatMicros(k.updatedAt),
  }
}

export const keyRoutes: AppRoute[] = [
  route<AppContext>('GET', '/keys', key('keys.get'), ({ keys, req }) => {
    const { offset, limit } = parseKeyPage(req.rawQuery)
    const all = keys.list()
    return json(200, { results: all.slice(offset, offset + limit).map((k) => keyView(keys, k)), offset, limit, total: all.length })
  }),
  route<AppContext>('POST', '/keys', key('keys.create'), async ({ keys, body }) => json(201, keyView(keys, await keys.create(parseCreateKey(await body()))))),
  route<AppContext>('GET', '/keys/:key', key('keys.get'), ({ keys, params }) => json(200, keyView(keys, keys.resolve(decodePathSegment(params.key!))))),
  route<AppContext>('PATCH', '/keys/:key', key('keys.update'), async ({ keys, params, body }) => {
    // As in Meilisearch, the body is read and checked before the key is looked up.
    const patch = parsePatchKey(await body())
    return json(200, keyView(keys, await keys.update(keys.resolve(decodePathSegment(params.key!)).uid, patch)))
  }),
  route<AppContext>('DELETE', '/keys/:key', key('keys.delete'), async ({ keys, params }) => {
    await keys.delete(keys.resolve(decodePathSegment(params.key!)).uid)
    return { status: 204 }
  }),
]

/** `/indexes/{uid}/documents` and its sub-routes. */
import {
  addDocuments, clearDocuments, deleteDocuments, deleteDocumentsByFilter, editDocuments, getDocument, listDocuments,
} from '../../engine/index.js'
import { FEATURE_ACTIONS } from '../../engine/features/index.js'
import { decodedBody } from '../http/body.js'
import { json } from '../http/json.js'
import { key, route } from '../http/router.js'
import {
  checkEdition, parseAddition, parseCustomMetadataQuery, parseDeleteBatchBody, parseDeleteByFilterBody, parseEditBody, parseFetchBody,
  parseGetQuery, parseListQuery,
} from '../api/documents.js'
import { decodePathSegment, indexUidFromPath } from '../api/index-uid.js'
import type { AppContext, AppRoute, Ctx } from './context.js'

async function add(ctx: Ctx, method: 'replace' | 'update') {
  const uid = indexUidFromPath(ctx.params.uid!)
  const request = parseAddition(ctx.req.rawQuery, ctx.req.headers.get('content-type'))
  const body = decodedBody(ctx.req, ctx.config.httpPayloadSizeLimit)
  // A key without `indexes.create` may write to an existing index only: the task fails on a missing one.
  const allowIndexCreation = request.allowIndexCreation && ctx.auth.allowIndexCreation(uid)
  return json(202, await addDocuments(ctx.engine, uid, body, { method, ...request, allowIndexCreation }))
}

export const documentRoutes: AppRoute[] = [
  route<AppContext>('POST', '/indexes/:uid/documents', key('documents.add'), (ctx) => add(ctx, 'replace')),
  route<AppContext>('PUT', '/indexes/:uid/documents', key('documents.add'), (ctx) => add(ctx, 'update')),
  route<AppContext>('GET', '/indexes/:uid/documents', key('documents.get'), async ({ engine, params, req }) => {
    const uid = indexUidFromPath(params.uid!)
    return json(200, await listDocuments(engine, uid, parseListQuery(req.rawQuery)))
  }),
  route<AppContext>('POST', '/indexes/:uid/documents/fetch', key('documents.get'), async ({ engine, params, body }) => {
    const uid = indexUidFromPath(params.uid!)
    return json(200, await listDocuments(engine, uid, parseFetchBody(await body())))
  }),
  route<AppContext>('GET', '/indexes/:uid/documents/:id', key('documents.get'), async ({ engine, params, req }) => {
    const uid = indexUidFromPath(params.uid!)
    const { fields, retrieveVectors } = parseGetQuery(req.rawQuery)
    return json(200, await getDocument(engine, uid, decodePathSegment(params.id!), fields, retrieveVectors))
  }),
  route<AppContext>('DELETE', '/indexes/:uid/documents/:id', key('documents.delete'), async ({ engine, params, req }) => {
    const uid = indexUidFromPath(params.uid!)
    return json(202, await deleteDocuments(engine, uid, [decodePathSegment(params.id!)], parseCustomMetadataQuery(req.rawQuery)))
  }),
  route<AppContext>('DELETE', '/indexes/:uid/documents', key('documents.delete'), async ({ engine, params, req }) => {
    const uid = indexUidFromPath(params.uid!)
    return json(202, await clearDocuments(engine, uid, parseCustomMetadataQuery(req.rawQuery)))
  }),
  route<AppContext>('POST', '/indexes/:uid/documents/delete-batch', key('documents.delete'), async ({ engine, params, body, req }) => {
    const uid = indexUidFromPath(params.uid!)
    const customMetadata = parseCustomMetadataQuery(req.rawQuery)
    return json(202, await deleteDocuments(engine, uid, parseDeleteBatchBody(await body()), customMetadata))
  }),
  // Meilisearch's order: the body, the feature gate, the index uid, then the script, filter and context checks.
  route<AppContext>('POST', '/indexes/:uid/documents/edit', key('documents.*'), async ({ engine, params, body, req }) => {
    const customMetadata = parseCustomMetadataQuery(req.rawQuery)
    const edit = parseEditBody(await body())
    engine.features.require('editDocumentsByFunction', FEATURE_ACTIONS.editDocumentsByFunction)
    const uid = indexUidFromPath(params.uid!)
    return json(202, await editDocuments(engine, uid, await checkEdition(edit), customMetadata))
  }),
  route<AppContext>('POST', '/indexes/:uid/documents/delete', key('documents.delete'), async ({ engine, params, body, req }) => {
    const uid = indexUidFromPath(params.uid!)
    const customMetadata = parseCustomMetadataQuery(req.rawQuery)
    return json(202, await deleteDocumentsByFilter(engine, uid, parseDeleteByFilterBody(await body()), customMetadata))
  }),
]

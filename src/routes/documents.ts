/** `/indexes/{uid}/documents` and its sub-routes. */
import {
  addDocuments, clearDocuments, deleteDocuments, deleteDocumentsByFilter, getDocument, listDocuments,
} from '../../engine/index.js'
import { decodedBody } from '../http/body.js'
import { json } from '../http/json.js'
import { key, route } from '../http/router.js'
import {
  parseAddition, parseCustomMetadataQuery, parseDeleteBatchBody, parseDeleteByFilterBody, parseFetchBody, parseGetQuery, parseListQuery,
} from '../api/documents.js'
import { decodePathSegment, indexUidFromPath } from '../api/index-uid.js'
import type { AppContext, AppRoute, Ctx } from './context.js'

async function add(ctx: Ctx, method: 'replace' | 'update') {
  const uid = indexUidFromPath(ctx.params.uid!)
  const request = parseAddition(ctx.req.rawQuery, ctx.req.headers.get('content-type'))
  const body = decodedBody(ctx.req, ctx.config.httpPayloadSizeLimit)
  return json(202, await addDocuments(ctx.engine, uid, body, { method, ...request }))
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
  route<AppContext>('GET', '/indexes/:uid/documents/:id', key('documents.get'), ({ engine, params, req }) => {
    const uid = indexUidFromPath(params.uid!)
    const { fields, retrieveVectors } = parseGetQuery(req.rawQuery)
    return json(200, getDocument(engine, uid, decodePathSegment(params.id!), fields, retrieveVectors))
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
  route<AppContext>('POST', '/indexes/:uid/documents/delete', key('documents.delete'), async ({ engine, params, body, req }) => {
    const uid = indexUidFromPath(params.uid!)
    const customMetadata = parseCustomMetadataQuery(req.rawQuery)
    return json(202, await deleteDocumentsByFilter(engine, uid, parseDeleteByFilterBody(await body()), customMetadata))
  }),
]

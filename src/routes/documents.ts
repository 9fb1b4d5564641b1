/** `/indexes/{uid}/documents` and its sub-routes. */
import { TesseraError } from '../../engine/errors/index.js'
import type { PayloadFormat } from '../../engine/tasks/types.js'
import { parseFilter } from '../../engine/filter/index.js'
import type { DocumentQuery } from '../../engine/documents/read.js'
import { decodedBody } from '../http/body.js'
import { json } from '../http/json.js'
import { booleanParam, expectObject, invalidParameter, invalidType, parseQuery, positiveIntegerParam, type JsonObject } from '../../engine/errors/deserr.js'
import { decodePathSegment, indexUidFromPath } from '../validation/index-uid.js'
import type { AppRouter, Ctx } from './context.js'

const ACCEPTED = '`application/json`, `application/x-ndjson`, `text/csv`'
const FORMATS: Record<string, PayloadFormat> = { 'application/json': 'json', 'application/x-ndjson': 'ndjson', 'text/csv': 'csv' }

/** The payload format from the Content-Type, with Meilisearch's errors. */
function payloadFormat(contentType: string | undefined): PayloadFormat {
  if (contentType === undefined) throw new TesseraError('missing_content_type', `A Content-Type header is missing. Accepted values for the Content-Type header are: ${ACCEPTED}`)
  const format = FORMATS[contentType.split(';')[0]!.trim().toLowerCase()]
  if (!format) throw new TesseraError('invalid_content_type', `The Content-Type \`${contentType}\` is invalid. Accepted values for the Content-Type header are: ${ACCEPTED}`)
  return format
}

function csvDelimiterParam(raw: string | undefined, format: PayloadFormat, contentType: string): string {
  if (raw === undefined) return ','
  if (format !== 'csv') {
    throw new TesseraError('invalid_content_type', `The Content-Type \`${contentType}\` does not support the use of a csv delimiter. The csv delimiter is only supported with the Content-Type \`text/csv\`.`)
  }
  const chars = [...raw]
  if (chars.length !== 1) {
    throw invalidParameter('invalid_document_csv_delimiter', 'csvDelimiter', `expected a string of one character, but found the following string of ${chars.length} characters: \`${raw}\``)
  }
  if (raw.charCodeAt(0) > 127) throw invalidParameter('invalid_document_csv_delimiter', 'csvDelimiter', `csv delimiter must be an ascii character. Found: \`${raw}\``)
  return raw
}

async function addDocuments(ctx: Ctx, method: 'replace' | 'update') {
  const uid = indexUidFromPath(ctx.params.uid!)
  const params = parseQuery(ctx.req.rawQuery, ['primaryKey', 'csvDelimiter', 'customMetadata', 'skipCreation'])
  const contentType = ctx.req.headers.get('content-type')
  const format = payloadFormat(contentType)
  const csvDelimiter = csvDelimiterParam(params.get('csvDelimiter'), format, contentType!)
  const skipCreation = params.has('skipCreation') ? booleanParam('bad_request', 'skipCreation', params.get('skipCreation')!) : false
  const task = await ctx.engine.addDocuments(uid, decodedBody(ctx.req, ctx.config.httpPayloadSizeLimit), {
    method, format, csvDelimiter, primaryKey: params.get('primaryKey') ?? null, allowIndexCreation: !skipCreation,
  })
  return json(202, task)
}

const list = (text: string) => text.split(',').map((s) => s.trim()).filter((s) => s !== '')

/** `GET /documents` query parameters. */
function listQuery(raw: string): DocumentQuery {
  const params = parseQuery(raw, ['offset', 'limit', 'fields', 'retrieveVectors', 'filter', 'ids'])
  return {
    offset: params.has('offset') ? positiveIntegerParam('invalid_document_offset', 'offset', params.get('offset')!) : 0,
    limit: params.has('limit') ? positiveIntegerParam('invalid_document_limit', 'limit', params.get('limit')!) : 20,
    fields: params.has('fields') ? list(params.get('fields')!) : null,
    retrieveVectors: params.has('retrieveVectors') ? booleanParam('invalid_document_retrieve_vectors', 'retrieveVectors', params.get('retrieveVectors')!) : false,
    filter: params.get('filter') ?? null,
    ids: params.has('ids') ? list(params.get('ids')!) : null,
  }
}

function nonNegativeInteger(value: unknown, field: string, code: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) throw invalidType(code, `.${field}`, 'a positive integer', value)
  return value
}

/** `POST /documents/fetch` body. */
function fetchQuery(body: unknown): DocumentQuery {
  const obj: JsonObject = expectObject(body, '', ['offset', 'limit', 'fields', 'filter', 'retrieveVectors', 'ids'])
  const q: DocumentQuery = { offset: 0, limit: 20, fields: null, filter: null, retrieveVectors: false, ids: null }
  if (obj.offset !== undefined) q.offset = nonNegativeInteger(obj.offset, 'offset', 'invalid_document_offset')
  if (obj.limit !== undefined) q.limit = nonNegativeInteger(obj.limit, 'limit', 'invalid_document_limit')
  if (obj.fields !== undefined && obj.fields !== null) {
    if (!Array.isArray(obj.fields)) throw invalidType('invalid_document_fields', '.fields', 'an array', obj.fields)
    obj.fields.forEach((f, i) => { if (typeof f !== 'string') throw invalidType('invalid_document_fields', `.fields[${i}]`, 'a string', f) })
    q.fields = obj.fields as string[]
  }
  if (obj.retrieveVectors !== undefined) {
    if (typeof obj.retrieveVectors !== 'boolean') throw invalidType('invalid_document_retrieve_vectors', '.retrieveVectors', 'a boolean', obj.retrieveVectors)
    q.retrieveVectors = obj.retrieveVectors
  }
  if (obj.ids !== undefined && obj.ids !== null) {
    if (!Array.isArray(obj.ids)) throw invalidType('invalid_document_ids', '.ids', 'an array', obj.ids)
    obj.ids.forEach((id, i) => { if (typeof id !== 'string' && typeof id !== 'number') throw invalidType('invalid_document_ids', `.ids[${i}]`, 'a string or an integer', id) })
    q.ids = obj.ids as (string | number)[]
  }
  q.filter = obj.filter ?? null
  return q
}

export function documentRoutes(router: AppRouter): void {
  router
    .on('POST', '/indexes/:uid/documents', (ctx) => addDocuments(ctx, 'replace'))
    .on('PUT', '/indexes/:uid/documents', (ctx) => addDocuments(ctx, 'update'))
    .on('GET', '/indexes/:uid/documents', async ({ engine, params, req }) => {
      const uid = indexUidFromPath(params.uid!)
      return json(200, await engine.listDocuments(uid, listQuery(req.rawQuery)))
    })
    .on('POST', '/indexes/:uid/documents/fetch', async ({ engine, params, body }) => {
      const uid = indexUidFromPath(params.uid!)
      return json(200, await engine.listDocuments(uid, fetchQuery(await body())))
    })
    .on('GET', '/indexes/:uid/documents/:id', ({ engine, params, req }) => {
      const uid = indexUidFromPath(params.uid!)
      const q = parseQuery(req.rawQuery, ['fields', 'retrieveVectors'])
      const fields = q.has('fields') ? list(q.get('fields')!) : null
      const retrieveVectors = q.has('retrieveVectors') ? booleanParam('invalid_document_retrieve_vectors', 'retrieveVectors', q.get('retrieveVectors')!) : false
      return json(200, engine.getDocument(uid, decodePathSegment(params.id!), fields, retrieveVectors))
    })
    .on('DELETE', '/indexes/:uid/documents/:id', async ({ engine, params }) => {
      const uid = indexUidFromPath(params.uid!)
      return json(202, await engine.deleteDocuments(uid, [decodePathSegment(params.id!)]))
    })
    .on('DELETE', '/indexes/:uid/documents', async ({ engine, params }) => json(202, await engine.clearDocuments(indexUidFromPath(params.uid!))))
    .on('POST', '/indexes/:uid/documents/delete-batch', async ({ engine, params, body }) => {
      const uid = indexUidFromPath(params.uid!)
      const ids = await body()
      if (!Array.isArray(ids)) throw invalidType('bad_request', '', 'an array', ids)
      ids.forEach((id, i) => { if (typeof id !== 'string' && typeof id !== 'number') throw invalidType('bad_request', `[${i}]`, 'a string or an integer', id) })
      return json(202, await engine.deleteDocuments(uid, ids.map(String)))
    })
    .on('POST', '/indexes/:uid/documents/delete', async ({ engine, params, body }) => {
      const uid = indexUidFromPath(params.uid!)
      const obj = expectObject(await body(), '', ['filter'])
      // The spec: an empty object is a `bad_request`.
      if (obj.filter === undefined) throw new TesseraError('bad_request', 'Missing field `filter`')
      const filter = obj.filter
      if (filter === null || (typeof filter === 'string' && filter.trim() === '') || (Array.isArray(filter) && filter.length === 0)) {
        throw new TesseraError('invalid_document_filter', 'Sending an empty filter is forbidden.')
      }
      // Syntax errors are answered now; whether the attributes are filterable is checked when the task runs.
      parseFilter(filter, 'invalid_document_filter')
      return json(202, await engine.deleteDocumentsByFilter(uid, filter))
    })
}

/**
 * Requests of the document routes: the payload's format from its `Content-Type` (with `csvDelimiter`), the query
 * strings of additions, list and get, the bodies of fetch, delete-batch, delete-by-filter and edit, with Meilisearch's
 * codes and messages.
 */
import { serdeInvalidType } from '../../engine/json/serde-errors.js'
import { TesseraError } from '../../engine/errors/index.js'
import { parseFilter } from '../../engine/filter/index.js'
import type { PayloadFormat } from '../../engine/tasks/types.js'
import type { DocumentQuery } from '../../engine/documents/read.js'
import { isObject } from '../../engine/json/value.js'
import { fixSortQueryParameters } from './search.js'
import { booleanParam, expectObject, expectString, expectUsize, invalidParameter, invalidType, missingField, parseQuery, positiveIntegerParam } from './deserr.js'

const ACCEPTED = '`application/json`, `application/x-ndjson`, `text/csv`'
const FORMATS: Record<string, PayloadFormat> = { 'application/json': 'json', 'application/x-ndjson': 'ndjson', 'text/csv': 'csv' }

/** What a document addition asks for, besides its body. */
export interface AdditionRequest {
  format: PayloadFormat
  csvDelimiter: string
  primaryKey: string | null
  allowIndexCreation: boolean
  skipCreation: boolean
  customMetadata?: string
}

/** The payload format from the Content-Type, with Meilisearch's errors. */
function payloadFormat(contentType: string | undefined): PayloadFormat {
  if (contentType === undefined) throw new TesseraError('missing_content_type', `A Content-Type header is missing. Accepted values for the Content-Type header are: ${ACCEPTED}`)
  const format = FORMATS[contentType.split(';')[0]!.trim().toLowerCase()]
  if (!format) throw new TesseraError('invalid_content_type', `The Content-Type \`${contentType}\` is invalid. Accepted values for the Content-Type header are: ${ACCEPTED}`)
  return format
}

function csvDelimiterParam(raw: string | undefined, format: PayloadFormat): string {
  if (raw === undefined) return ','
  // The value is checked before it is matched against the format, as Meilisearch parses its query parameters first
  // (tests/documents/errors.rs: `?csvDelimiter=doggo` with JSON is `invalid_document_csv_delimiter`).
  const chars = [...raw]
  if (chars.length === 0) {
    throw invalidParameter('invalid_document_csv_delimiter', 'csvDelimiter', 'expected a string of one character, but found an empty string')
  }
  if (chars.length !== 1) {
    throw invalidParameter('invalid_document_csv_delimiter', 'csvDelimiter', `expected a string of one character, but found the following string of ${chars.length} characters: \`${raw}\``)
  }
  if (raw.charCodeAt(0) > 127) throw new TesseraError('invalid_document_csv_delimiter', `csv delimiter must be an ascii character. Found: \`${raw}\``)
  if (format !== 'csv') {
    // Meilisearch names the media type without its parameters (`application/json`, not `application/json; charset=utf-8`).
    const mediaType = format === 'json' ? 'application/json' : 'application/x-ndjson'
    throw new TesseraError('invalid_content_type', `The Content-Type \`${mediaType}\` does not support the use of a csv delimiter. The csv delimiter can only be used with the Content-Type \`text/csv\`.`)
  }
  return raw
}

/** `POST`/`PUT /indexes/{uid}/documents`: everything but the body, read before it. */
export function parseAddition(rawQuery: string, contentType: string | undefined): AdditionRequest {
  const params = parseQuery(rawQuery, ['primaryKey', 'csvDelimiter', 'customMetadata', 'skipCreation'])
  const format = payloadFormat(contentType)
  const csvDelimiter = csvDelimiterParam(params.get('csvDelimiter'), format)
  const skipCreation = params.has('skipCreation') ? booleanParam('bad_request', 'skipCreation', params.get('skipCreation')!) : false
  const request: AdditionRequest = { format, csvDelimiter, primaryKey: params.get('primaryKey') ?? null, allowIndexCreation: !skipCreation, skipCreation }
  if (params.has('customMetadata')) request.customMetadata = params.get('customMetadata')!
  return request
}

/**
 * The query string of the other document writes (deletions, clear, edit): only `customMetadata` (Meilisearch's
 * `CustomMetadataQuery`, unknown parameters refused).
 */
export function parseCustomMetadataQuery(rawQuery: string): string | undefined {
  return parseQuery(rawQuery, ['customMetadata']).get('customMetadata')
}

const list = (text: string) => text.split(',').map((s) => s.trim()).filter((s) => s !== '')

/** `GET /indexes/{uid}/documents` query parameters. */
export function parseListQuery(raw: string): DocumentQuery {
  const params = parseQuery(raw, ['offset', 'limit', 'fields', 'retrieveVectors', 'filter', 'ids', 'sort'])
  return {
    offset: params.has('offset') ? positiveIntegerParam('invalid_document_offset', 'offset', params.get('offset')!) : 0,
    limit: params.has('limit') ? positiveIntegerParam('invalid_document_limit', 'limit', params.get('limit')!) : 20,
    fields: params.has('fields') ? list(params.get('fields')!) : null,
    retrieveVectors: params.has('retrieveVectors') ? booleanParam('invalid_document_retrieve_vectors', 'retrieveVectors', params.get('retrieveVectors')!) : false,
    filter: params.get('filter') ?? null,
    ids: params.has('ids') ? list(params.get('ids')!) : null,
    sort: params.has('sort') ? fixSortQueryParameters(params.get('sort')!) : null,
  }
}

/** `GET /indexes/{uid}/documents/{id}` query parameters. */
export function parseGetQuery(raw: string): { fields: string[] | null; retrieveVectors: boolean } {
  const q = parseQuery(raw, ['fields', 'retrieveVectors'])
  return {
    fields: q.has('fields') ? list(q.get('fields')!) : null,
    retrieveVectors: q.has('retrieveVectors') ? booleanParam('invalid_document_retrieve_vectors', 'retrieveVectors', q.get('retrieveVectors')!) : false,
  }
}

/** `POST /indexes/{uid}/documents/fetch` body. */
export function parseFetchBody(body: unknown): DocumentQuery {
  const obj = expectObject(body, '', ['offset', 'limit', 'fields', 'filter', 'retrieveVectors', 'ids', 'sort'])
  const q: DocumentQuery = { offset: 0, limit: 20, fields: null, filter: null, retrieveVectors: false, ids: null, sort: null }
  if (obj.offset !== undefined) q.offset = expectUsize(obj.offset, '.offset', 'invalid_document_offset')
  if (obj.limit !== undefined) q.limit = expectUsize(obj.limit, '.limit', 'invalid_document_limit')
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
  if (obj.sort !== undefined && obj.sort !== null) {
    if (!Array.isArray(obj.sort)) throw invalidType('invalid_document_sort', '.sort', 'an array', obj.sort)
    obj.sort.forEach((s, i) => { if (typeof s !== 'string') throw invalidType('invalid_document_sort', `.sort[${i}]`, 'a string', s) })
    q.sort = obj.sort as string[]
  }
  q.filter = obj.filter ?? null
  return q
}

/** `POST /indexes/{uid}/documents/delete-batch`: an array of ids. */
export function parseDeleteBatchBody(body: unknown): string[] {
  // Meilisearch reads this body with serde, not deserr (tests/documents/errors.rs `delete_documents_batch`).
  if (!Array.isArray(body)) throw new TesseraError('bad_request', `Json deserialize error: ${serdeInvalidType(body, 'a sequence')}`)
  body.forEach((id, i) => { if (typeof id !== 'string' && typeof id !== 'number') throw invalidType('bad_request', `[${i}]`, 'a string or an integer', id) })
  return body.map(String)
}

/**
 * `POST /indexes/{uid}/documents/delete`: `{filter}`. Syntax errors are answered now; whether the attributes are
 * filterable is checked when the task runs.
 */
export function parseDeleteByFilterBody(body: unknown): unknown {
  const obj = expectObject(body, '', ['filter'])
  // The spec: an empty object is a `bad_request`.
  if (obj.filter === undefined) throw new TesseraError('bad_request', 'Missing field `filter`')
  const filter = obj.filter
  if (filter === null || (typeof filter === 'string' && filter.trim() === '') || (Array.isArray(filter) && filter.length === 0)) {
    throw new TesseraError('invalid_document_filter', 'Sending an empty filter is forbidden.')
  }
  parseFilter(filter, 'invalid_document_filter')
  return filter
}

/** The fields of an edit-by-function body, in Meilisearch's declaration order (its "Unknown field" message). */
const EDIT_FIELDS = ['filter', 'context', 'function'] as const

/**
 * `POST /indexes/{uid}/documents/edit {function, filter?, context?}` as deserr reads it (the body's key order, first
 * error wins); whether the script compiles, the filter parses and the context is an object is checked after the
 * feature gate (see the route).
 */
export function parseEditBody(body: unknown): { function: string; filter: unknown; context: unknown } {
  const obj = expectObject(body, '', EDIT_FIELDS)
  let fn: string | undefined
  for (const key of Object.keys(obj)) {
    if (key === 'function') fn = expectString(obj.function, '.function', 'invalid_document_edition_function_filter')
  }
  if (fn === undefined) throw missingField('missing_document_edition_function', '', 'function')
  return { function: fn, filter: obj.filter ?? null, context: obj.context ?? null }
}

/**
 * The checks Meilisearch's edit route makes once the body is read: the script compiles (with Rhai's default
 * engine: a syntax error is a `bad_request` with Rhai's message), the filter parses and is not empty, the context
 * is an object. The Rhai interpreter loads on the first edition request, not at start-up (27 modules a server that
 * never edits by function does not need).
 */
export async function checkEdition(edit: { function: string; filter: unknown; context: unknown }): Promise<{ function: string; filter: unknown; context: Record<string, unknown> | null }> {
  const { compileScript, editRouteError, RhaiSyntaxError, ROUTE_COMPILE_LIMITS } = await import('../../engine/rhai/index.js')
  try {
    compileScript(edit.function, ROUTE_COMPILE_LIMITS)
  } catch (err) {
    if (err instanceof RhaiSyntaxError) throw editRouteError(err)
    throw err
  }
  if (edit.filter !== null && parseFilter(edit.filter, 'invalid_document_filter') === null) {
    throw new TesseraError('invalid_document_filter', 'Sending an empty filter is forbidden.')
  }
  if (edit.context !== null && !isObject(edit.context)) throw new TesseraError('invalid_document_edition_context', 'The context must be an object')
  return { function: edit.function, filter: edit.filter, context: edit.context as Record<string, unknown> | null }
}

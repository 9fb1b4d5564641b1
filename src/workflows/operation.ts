/**
 * One request of the workflow API, through the steps n8n takes them in (express-openapi-validator: route, API
 * key, content type, query and body; then the route's scope check and the handler), each with n8n's status and
 * `{message}`. n8n parses the JSON body before all of that; here it is read once the key is known to be good.
 *
 *   bad percent-escape in the path 400 malformed uri'                     (sic: the validator's message)
 *   key missing / not valid       401 'X-SERVICE-API-KEY' header required / unauthorized
 *   body that is not JSON         400 Invalid JSON in request body        (413 when over the size limit)
 *   body not application/json     415 unsupported media type <type>
 *   unknown or empty parameter    400 Unknown query parameter 'x' / Empty value found for query parameter 'x'
 *   query or body invalid         400 request/query/limit must be <= 250, request/body must have ...
 *   key without the action        403 Forbidden
 */
import { TesseraError } from '../../engine/errors/index.js'
import type { Store } from '../../engine/storage/index.js'
import { readBody } from '../http/body.js'
import { json } from '../http/json.js'
import type { RouteContext } from '../http/router.js'
import type { Request, Response } from '../http/types.js'
import { API_KEY_HEADER, type ServiceKeyCheck, type WorkflowAction } from './auth.js'
import { ApiError } from './errors.js'
import { checkQuery, type QuerySpec, type QueryValues } from './query.js'
import { validate, validationMessage, type Schema } from './schema.js'
import type { WorkflowService } from './service.js'

/** What the routes need from the server's route context: the engine's Store and two settings. */
export interface WorkflowServerContext {
  engine: { store: Store }
  config: { masterKey: string | null; httpPayloadSizeLimit: number }
  /** The service's key system, where there is one; without it the master key alone is accepted. */
  serviceKeyCheck?: ServiceKeyCheck
}

export type WorkflowHost = WorkflowServerContext & RouteContext

export interface OperationInput {
  params: Record<string, string>
  query: QueryValues
  body: unknown
  service: WorkflowService
}

export interface Operation {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE'
  /** Under `/api/v1`, with `:id` for the path parameter. */
  path: string
  action: WorkflowAction
  /** The query parameters the route declares (any other is refused). */
  query?: QuerySpec
  /** The schema of the route's JSON body, which is then required. */
  body?: Schema
  run(input: OperationInput): Promise<Response>
}

/** n8n's error response: `{message}`. */
export function errorReply(status: number, text: string, headers?: Record<string, string>): Response {
  const reply = json(status, { message: text })
  return headers ? { ...reply, headers: { ...reply.headers, ...headers } } : reply
}

export async function perform(op: Operation, ctx: WorkflowHost, keyCheck: ServiceKeyCheck): Promise<Response> {
  try {
    const params = decodeParams(ctx.params)
    const verdict = await keyCheck(ctx.req.headers.get(API_KEY_HEADER.toLowerCase()) || undefined, op.action)
    if (verdict === 'missing') throw new ApiError(401, `'${API_KEY_HEADER}' header required`)
    if (verdict === 'invalid') throw new ApiError(401, 'unauthorized')
    // After the key (n8n parses the body first): a client without a valid key gets no body buffered.
    const body = await readJsonBody(ctx.req, ctx.config.httpPayloadSizeLimit)
    if (op.body) checkContentType(ctx.req.headers.get('content-type'))
    const { values, errors } = checkQuery(ctx.req.rawQuery, op.query ?? {})
    if (op.body) errors.push(...validate(op.body, body, '/body'))
    if (errors.length > 0) throw new ApiError(400, validationMessage(errors))
    if (verdict === 'forbidden') throw new ApiError(403, 'Forbidden')
    // The store's modules (listing, cursors, locks, ...) load with the first request that gets this far, not at
    // start-up: most servers never serve the workflow API.
    const { serviceFor } = await import('./service.js')
    return await op.run({ params, query: values, body, service: await serviceFor(ctx.engine.store) })
  } catch (err) {
    if (err instanceof ApiError) return errorReply(err.status, err.message, err.headers)
    throw err
  }
}

const isJsonType = (type: string | undefined) => type !== undefined && type.split(';')[0]!.trim().toLowerCase() === 'application/json'

/**
 * The body as Express's `express.json()` leaves it: parsed when the content type is JSON and there is a body
 * (strict: only an object or an array), else an empty object.
 */
async function readJsonBody(req: Request, limit: number): Promise<unknown> {
  let bytes: Buffer
  try {
    bytes = await readBody(req, limit)
  } catch (err) {
    if (err instanceof TesseraError && err.code === 'payload_too_large') throw new ApiError(413, 'request entity too large')
    if (err instanceof TesseraError) throw new ApiError(err.code === 'unsupported_media_type' ? 415 : 400, err.message)
    throw err
  }
  if (!isJsonType(req.headers.get('content-type')) || bytes.length === 0) return {}
  const text = bytes.toString('utf8')
  const first = text.trimStart()[0]
  if (first !== '{' && first !== '[') throw new ApiError(400, 'Invalid JSON in request body')
  try {
    return JSON.parse(text)
  } catch {
    throw new ApiError(400, 'Invalid JSON in request body')
  }
}

/** Path parameters percent-decoded, as the validator's route matching decodes them. */
function decodeParams(params: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [name, value] of Object.entries(params)) {
    try {
      out[name] = decodeURIComponent(value)
    } catch {
      throw new ApiError(400, "malformed uri'")
    }
  }
  return out
}

/** A body route takes `application/json` (with any parameters); the message names the type as the validator normalizes it. */
function checkContentType(type: string | undefined): void {
  if (isJsonType(type)) return
  if (type === undefined) throw new ApiError(415, 'unsupported media type undefined')
  const [media, ...rest] = type.split(';')
  const parameters = rest
    .map((p) => p.split('='))
    .filter((kv) => kv.length === 2 && kv[0]!.trim() !== '' && kv[0]!.trim().toLowerCase() !== 'boundary')
    .map(([k, v]) => {
      const key = k!.trim().toLowerCase()
      return [key, key === 'charset' ? v!.toLowerCase() : v!] as const
    })
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([k, v]) => `; ${k}=${v}`)
    .join('')
  throw new ApiError(415, `unsupported media type ${media!.trim().toLowerCase()}${parameters}`)
}

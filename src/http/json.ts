/** JSON request bodies and JSON responses. */
import { TesseraError, statusOf, toErrorObject } from '../../engine/errors/index.js'
import { parseJsonBytes, type JsonParse } from '../../engine/payload/json.js'
import type { WorkerPool } from '../../engine/pool/index.js'
import { readBody } from './body.js'
import type { Request, Response } from './types.js'

/** Bodies at least this large are parsed in the worker pool so the HTTP thread keeps serving. */
export const POOL_PARSE_THRESHOLD = 256 * 1024

const JSON_HEADERS = { 'content-type': 'application/json' }

export function json(status: number, value: unknown): Response {
  return { status, headers: JSON_HEADERS, body: JSON.stringify(value) }
}

/** A JSON response already serialized (a search's: engine/search/stored-hits.ts). */
export function jsonBytes(status: number, body: Uint8Array): Response {
  return { status, headers: JSON_HEADERS, body }
}

/** The response for any thrown value; `log` receives the details of an internal error (see `toErrorObject`). */
export function errorResponse(err: unknown, log?: (line: string) => void): Response {
  const body = toErrorObject(err, log)
  return json(statusOf(err, body), body)
}

/** Read and parse a JSON body, with Meilisearch's content-type and payload errors. */
export async function readJson(req: Request, limit: number, pool?: WorkerPool): Promise<unknown> {
  const type = req.headers.get('content-type')
  if (type === undefined) {
    throw new TesseraError('missing_content_type', 'A Content-Type header is missing. Accepted values for the Content-Type header are: `application/json`')
  }
  const essence = type.split(';')[0]!.trim().toLowerCase()
  if (essence !== 'application/json') {
    throw new TesseraError('invalid_content_type', `The Content-Type \`${type}\` is invalid. Accepted values for the Content-Type header are: \`application/json\``)
  }
  const bytes = await readBody(req, limit)
  let parsed: JsonParse
  if (pool && bytes.byteLength >= POOL_PARSE_THRESHOLD) {
    // A large body is checked off the HTTP thread (a faulty one is where the time goes: finding the fault's
    // position); a valid one is then parsed here.
    const checked = await pool.run<{ bytes: Uint8Array }, { ok: true } | Extract<JsonParse, { ok: false }>>('validateJson', { bytes })
    parsed = checked.ok ? { ok: true, value: JSON.parse(bytes.toString('utf8')) } : checked
  } else {
    parsed = parseJsonBytes(bytes)
  }
  if (parsed.ok) return parsed.value
  if (parsed.empty) throw new TesseraError('missing_payload', 'A json payload is missing.')
  throw new TesseraError('malformed_payload', `The json payload provided is malformed. \`${parsed.message}\`.`)
}

/**
 * An HTTP request as the auth endpoints see it: who it authenticates, its origin (for email links), its query
 * and its body. Bodies are read as Payload reads them: JSON when the content type says so (malformed or absent
 * JSON is an empty object), anything else is no data.
 */
import { readBody } from '../../http/body.js'
import type { Request } from '../../http/types.js'
import { TesseraError } from '../../../engine/errors/index.js'
import { APIError } from '../errors.js'
import type { AuthService } from '../service.js'
import { extractToken } from '../strategies/extract-token.js'
import type { OperationRequest } from '../operations/types.js'

export function operationRequest(auth: AuthService, req: Request): OperationRequest {
  const host = req.headers.get('host')
  return {
    user: auth.authenticate(req.headers),
    token: extractToken(req.headers, auth.config.cookiePrefix, auth.config.csrf),
    origin: host ? `http://${host}` : null,
  }
}

export async function readData(auth: AuthService, req: Request): Promise<Record<string, unknown>> {
  let bytes: Buffer
  try {
    bytes = await readBody(req, auth.bodyLimit)
  } catch (err) {
    if (err instanceof TesseraError) throw new APIError(err.message, err.status)
    throw err
  }
  const type = (req.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase()
  if (type !== 'application/json' || bytes.byteLength === 0) return {}
  try {
    const value: unknown = JSON.parse(bytes.toString('utf8'))
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {}
  } catch {
    return {}
  }
}

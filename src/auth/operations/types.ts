/** What every operation receives: the service, the collection, and the request (Payload's `PayloadRequest`). */
import type { AuthCollection, AuthService, AuthUser } from '../service.js'

export interface OperationRequest {
  /** The authenticated user, or null. */
  user: AuthUser | null
  /** The JWT the request presented (me reports it back), or null. */
  token: string | null
  /** `${protocol}//${host}` of an HTTP request: email links start with it when no `serverURL` is configured. */
  origin: string | null
}

export interface OperationArgs {
  auth: AuthService
  collection: AuthCollection
  req: OperationRequest
}

/** A request with nobody logged in and no HTTP origin: the local API's default. */
export const LOCAL_REQUEST: OperationRequest = { user: null, token: null, origin: null }

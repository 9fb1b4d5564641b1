import type { Engine } from '../../engine/index.js'
import type { Config } from '../config.js'
import type { AuthService } from '../auth/index.js'
import type { ServiceKeyCheck } from '../workflows/auth.js'
import type { Route, RouteContext } from '../http/router.js'
import type { Grant } from '../keys/grant.js'
import type { KeyStore } from '../keys/key-store.js'

/** What every route handler receives besides the request. */
export interface AppContext {
  engine: Engine
  config: Config
  /** The API keys (`/keys` routes). */
  keys: KeyStore
  /** What the request's key may touch: indexes, index creation, a tenant token's filters (see keys/grant.ts). */
  auth: Grant
  /** Area A: the auth collections under /api (their own tokens, outside the API keys). */
  collections: AuthService
  /** Area D: the API keys as the workflow API asks them (`X-SERVICE-API-KEY`, n8n's answers). */
  serviceKeyCheck: ServiceKeyCheck
  /** Read the JSON body (content type checked, size limited, parsed in the pool when large). */
  body(): Promise<unknown>
}

export type AppRoute = Route<AppContext>
export type Ctx = AppContext & RouteContext

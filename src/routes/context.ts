import type { Engine } from '../../engine/index.js'
import type { Config } from '../config.js'
import type { AuthService } from '../auth/index.js'
import type { Route, RouteContext } from '../http/router.js'

/** What every route handler receives besides the request. */
export interface AppContext {
  engine: Engine
  config: Config
  /** Area A (auth collections under /api). */
  auth: AuthService
  /** Read the JSON body (content type checked, size limited, parsed in the pool when large). */
  body(): Promise<unknown>
}

export type AppRoute = Route<AppContext>
export type Ctx = AppContext & RouteContext

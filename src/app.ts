/**
 * The request pipeline shared by both adapters: trailing-slash normalization, CORS, routing, the route's access
 * check (keys/guard.ts: after matching, before the handler, so a refused request never has its body read), error
 * responses and request logging.
 */
import { waitForTask, type Engine } from '../engine/index.js'
import { readAfterTask } from './cluster/read-after.js'
import type { Config } from './config.js'
import type { Logger } from './log.js'
import type { Handler, Request, Response } from './http/types.js'
import { Router } from './http/router.js'
import { errorResponse, readJson } from './http/json.js'
import type { AppContext } from './routes/context.js'
import { ROUTES } from './routes/index.js'
import type { AuthService } from './auth/index.js'
import { decodePathSegment } from './api/index-uid.js'
import { Guard } from './keys/guard.js'
import { serviceKeyCheck } from './keys/service-key.js'
import type { KeyStore } from './keys/key-store.js'

const INDEX_ROUTE = '/indexes/:uid'
const VARY = 'Origin, Access-Control-Request-Method, Access-Control-Request-Headers'
const ALLOWED_METHODS = 'GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS, CONNECT, TRACE'

export function buildRouter(): Router<AppContext> {
  return new Router<AppContext>(ROUTES)
}

/** CORS as Meilisearch sends it: any origin, method and header; preflights cached for a day. */
function preflight(req: Request): Response | null {
  if (req.method !== 'OPTIONS' || !req.headers.has('access-control-request-method')) return null
  const headers: Record<string, string> = {
    'access-control-allow-origin': '*',
    'access-control-allow-methods': ALLOWED_METHODS,
    'access-control-max-age': '86400',
    vary: VARY,
  }
  const requested = req.headers.get('access-control-request-headers')
  if (requested) headers['access-control-allow-headers'] = requested
  return { status: 200, headers }
}

function withCors(req: Request, res: Response): Response {
  // A response that varies on more (the preview's files on Accept-Encoding) keeps saying so.
  const own = res.headers?.vary
  const headers: Record<string, string> = { ...res.headers, vary: own && own !== VARY ? `${own}, ${VARY}` : VARY }
  if (req.headers.has('origin')) headers['access-control-allow-origin'] = '*'
  return { ...res, headers }
}

/** The services beside the engine that routes reach through their context. */
export interface Services {
  keys: KeyStore
  collections: AuthService
}

export function createHandler(engine: Engine, config: Config, log: Logger, { keys, collections }: Services): Handler {
  const router = buildRouter()
  const guard = new Guard(keys)
  const serviceKeys = serviceKeyCheck(keys)
  return async (req) => {
    const started = performance.now()
    let response: Response
    try {
      response = preflight(req) ?? (await route(req))
    } catch (err) {
      response = errorResponse(err, (line) => log.error(`${req.method} ${req.path}: ${line}`))
    }
    response = withCors(req, response)
    if (log.enabled('INFO')) log.info(`${req.method} ${req.path}${req.rawQuery ? '?' + req.rawQuery : ''} ${response.status} ${(performance.now() - started).toFixed(2)}ms`)
    return response
  }

  async function route(req: Request): Promise<Response> {
    // Meilisearch trims trailing slashes before routing.
    const path = req.path.length > 1 ? req.path.replace(/\/+$/, '') || '/' : req.path
    const match = router.match(req.method, path)
    // Unknown paths and wrong methods answer with an empty body, as Meilisearch (actix) does.
    if ('status' in match) return { status: match.status }
    // The index a route acts on is its `/indexes/:uid` segment, as Meilisearch's guard reads `index_uid`.
    const indexUid = match.route.path.startsWith(INDEX_ROUTE) ? decodePathSegment(match.params.uid!) : undefined
    const auth = guard.check(req, match.route.access, indexUid)
    // Cluster mode's read-your-writes: a request naming a task is answered once that task is applied here.
    const after = config.cluster ? readAfterTask(req) : null
    if (after !== null) await waitForTask(engine, after, config.cluster!.readWaitMs)
    const ctx = {
      req,
      params: match.params,
      engine,
      config,
      keys,
      auth,
      collections,
      serviceKeyCheck: serviceKeys,
      body: () => readJson(req, config.httpPayloadSizeLimit, engine.pool),
    }
    return await match.route.handler(ctx)
  }
}

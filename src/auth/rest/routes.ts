/**
 * Area A's HTTP surface under `/api`, in the service's route table (`authRoutes`). The router
 * hands every `/api/...` path that no more specific route claims (area D's `/api/v1/...` are more specific) to
 * `handleApiRequest`, which routes it as Payload does: its endpoints, and `404 {message: 'Route not found
 * "<path>"'}` for anything else, whatever the method.
 */
import type { Request, Response } from '../../http/types.js'
import { formatErrors } from '../errors.js'
import { MESSAGES } from '../messages.js'
import type { AuthService } from '../service.js'
import { docAccessOperation, globalAccessOperation } from '../operations/access.js'
import { accessEndpoint, collectionEndpoints, globalAccessEndpoint, respond, RouteNotFound, type CollectionEndpointContext, type EndpointContext } from './endpoints.js'
import { operationRequest, readData } from './request.js'

type Run = (ctx: EndpointContext) => Promise<Response>

interface ApiRoute {
  methods: string[]
  /** Segments after `/api`; `:name` matches one segment. */
  segments: string[]
  run: Run
  /** The path holds a secret (the verification token): the request log must not print it. */
  secretParam?: string
}

const inCollection = (name: keyof typeof collectionEndpoints, needs?: (ctx: CollectionEndpointContext) => boolean): Run => async (ctx) => {
  const collection = ctx.auth.collection(ctx.params.slug!)
  if (!collection) throw new RouteNotFound()
  const full = { ...ctx, collection }
  if (needs && !needs(full)) throw new RouteNotFound()
  return collectionEndpoints[name]!(full)
}


/** `/api/<slug>/access[/<id>]`: a collection's permissions (for one document), or a global's (the spec's form). */
const slugAccess: Run = async (ctx) => {
  const collection = ctx.auth.collection(ctx.params.slug!)
  if (collection) {
    return respond(200, await docAccessOperation({ auth: ctx.auth, collection, req: ctx.req, id: ctx.params.id }))
  }
  const global = ctx.params.id === undefined ? ctx.auth.config.globals.find((g) => g.slug === ctx.params.slug) : undefined
  if (!global) throw new RouteNotFound()
  return respond(200, await globalAccessOperation({ global, req: ctx.req }))
}

/** `/api/graphql`, loaded on its first request: `graphql` takes ~0.5 s to load, too much for every start-up. */
const graphqlEndpoint: Run = async (ctx) => (await import('../graphql/endpoint.js')).graphqlEndpoint(ctx)

const ROUTES: ApiRoute[] = [
  { methods: ['GET', 'POST'], segments: ['access'], run: accessEndpoint },
  { methods: ['POST'], segments: ['graphql'], run: graphqlEndpoint },
  { methods: ['GET', 'POST'], segments: ['globals', ':slug', 'access'], run: globalAccessEndpoint },
  { methods: ['GET', 'POST'], segments: [':slug', 'access'], run: slugAccess },
  { methods: ['GET', 'POST'], segments: [':slug', 'access', ':id'], run: slugAccess },
  { methods: ['POST'], segments: [':slug', 'login'], run: inCollection('login') },
  { methods: ['GET'], segments: [':slug', 'me'], run: inCollection('me') },
  { methods: ['POST'], segments: [':slug', 'logout'], run: inCollection('logout') },
  { methods: ['POST'], segments: [':slug', 'refresh-token'], run: inCollection('refresh') },
  { methods: ['POST'], segments: [':slug', 'verify', ':token'], run: inCollection('verify', (c) => c.collection.auth.verify !== false), secretParam: 'token' },
  { methods: ['POST'], segments: [':slug', 'unlock'], run: inCollection('unlock') },
  { methods: ['POST'], segments: [':slug', 'forgot-password'], run: inCollection('forgotPassword') },
  { methods: ['POST'], segments: [':slug', 'reset-password'], run: inCollection('resetPassword') },
  { methods: ['POST'], segments: [':slug', 'first-register'], run: inCollection('firstRegister') },
  { methods: ['GET'], segments: [':slug', 'init'], run: inCollection('init') },
  { methods: ['GET'], segments: [':slug'], run: inCollection('find') },
  { methods: ['POST'], segments: [':slug'], run: inCollection('create') },
  { methods: ['GET'], segments: [':slug', ':id'], run: inCollection('findByID') },
  { methods: ['PATCH'], segments: [':slug', ':id'], run: inCollection('update') },
]

const staticCount = (segments: string[]) => segments.filter((s) => !s.startsWith(':')).length

function match(method: string, parts: string[]): { route: ApiRoute; params: Record<string, string> } | null {
  let best: { route: ApiRoute; params: Record<string, string> } | null = null
  for (const route of ROUTES) {
    if (route.segments.length !== parts.length || !route.methods.includes(method)) continue
    const params: Record<string, string> = {}
    if (!route.segments.every((s, i) => (s.startsWith(':') ? ((params[s.slice(1)] = parts[i]!), true) : s === parts[i]))) continue
    if (!best || staticCount(route.segments) > staticCount(best.route.segments)) best = { route, params }
  }
  return best
}

function decodeSegments(path: string): string[] | null {
  try {
    return path.split('/').filter(Boolean).map(decodeURIComponent)
  } catch {
    return null
  }
}

export async function handleApiRequest(auth: AuthService, http: Request): Promise<Response> {
  const path = http.path.length > 1 ? http.path.replace(/\/+$/, '') : http.path
  const method = http.method === 'HEAD' ? 'GET' : http.method
  const parts = decodeSegments(path)
  const found = parts && parts[0] === 'api' ? match(method, parts.slice(1)) : null
  if (found?.route.secretParam) {
    // The request log prints `req.path` once this returns: keep the token out of it.
    const at = found.route.segments.indexOf(`:${found.route.secretParam}`) + 2 // after '' and 'api'
    http.path = path.split('/').map((s, i) => (i === at ? '[withheld]' : s)).join('/')
  }
  try {
    if (!found) throw new RouteNotFound()
    let data: Promise<Record<string, unknown>> | undefined
    const ctx: EndpointContext = {
      auth,
      req: operationRequest(auth, http),
      params: found.params,
      query: new URLSearchParams(http.rawQuery),
      data: () => (data ??= readData(auth, http)),
    }
    return await found.route.run(ctx)
  } catch (err) {
    if (err instanceof RouteNotFound) return respond(404, { message: MESSAGES.routeNotFound(path) })
    const { status, body } = formatErrors(err)
    if (status >= 500) auth.log.error(`${http.method} ${http.path}: ${err instanceof Error ? err.stack ?? err.message : String(err)}`)
    return respond(status, body)
  }
}

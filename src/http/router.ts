/**
 * The route table and its matcher. Every route declares, beside its method and path, who may call it (`Access`):
 * the front end checks that before the handler runs and before any body is read, so a route cannot forget it.
 * Matching is precomputed when the router is built: fully static paths are one map look-up, parameterized
 * routes are grouped by segment count and ordered once, most specific first.
 */
import type { Request, Response } from './types.js'

/**
 * Who may call a route.
 * - `public`: anyone, even with a master key set (`/health`).
 * - `key`: a key of the engine's key system (`Authorization: Bearer`) holding `action`; `tenantToken` routes also
 *   take tenant tokens (search routes).
 * - `serviceKey`: the same key system, presented in `X-SERVICE-API-KEY` (the workflow API, area D).
 * - `collections`: the auth collections (area A), which authenticate with their own tokens, as Payload does.
 */
export type Access =
  | { kind: 'public' }
  | { kind: 'key'; action: string; tenantToken?: true }
  | { kind: 'serviceKey'; action: string }
  | { kind: 'collections' }

export const open: Access = { kind: 'public' }
export const collections: Access = { kind: 'collections' }
export const key = (action: string): Access => ({ kind: 'key', action })
/** A search route: an API key with `search`, or a tenant token derived from one. */
export const searchKey: Access = { kind: 'key', action: 'search', tenantToken: true }
export const serviceKey = (action: string): Access => ({ kind: 'serviceKey', action })

export interface RouteContext {
  req: Request
  params: Record<string, string>
}

export type RouteHandler<C> = (ctx: C & RouteContext) => Promise<Response> | Response

export interface Route<C> {
  method: string
  /** `/indexes/:uid/documents`: static segments and `:name` parameters. */
  path: string
  access: Access
  handler: RouteHandler<C>
}

export function route<C>(method: string, path: string, access: Access, handler: RouteHandler<C>): Route<C> {
  return { method, path, access, handler }
}

export type Match<C> = { route: Route<C>; params: Record<string, string> } | { status: 404 | 405 }

interface Compiled<C> {
  route: Route<C>
  segments: string[]
  /** Number of static segments: routes with more win (`/tasks/cancel` over `/tasks/:uid`). */
  specificity: number
}

export class Router<C> {
  readonly routes: readonly Route<C>[]
  /** Routes without parameters, by path, then by method. */
  private readonly fixed = new Map<string, Map<string, Route<C>>>()
  /** Routes with parameters, by segment count, most specific first. */
  private readonly bySize = new Map<number, Compiled<C>[]>()

  constructor(routes: readonly Route<C>[]) {
    this.routes = routes
    for (const r of routes) {
      const segments = r.path.split('/').filter(Boolean)
      const specificity = segments.filter((s) => !s.startsWith(':')).length
      const seen = routes.filter((o) => o.method === r.method && o.path === r.path)
      if (seen.length > 1) throw new Error(`route ${r.method} ${r.path} is declared twice`)
      if (specificity === segments.length) {
        const key = '/' + segments.join('/')
        let methods = this.fixed.get(key)
        if (!methods) this.fixed.set(key, (methods = new Map()))
        methods.set(r.method, r)
      }
      let list = this.bySize.get(segments.length)
      if (!list) this.bySize.set(segments.length, (list = []))
      list.push({ route: r, segments, specificity })
    }
    for (const list of this.bySize.values()) list.sort((a, b) => b.specificity - a.specificity)
  }

  match(method: string, path: string): Match<C> {
    const fixed = this.fixed.get(path)
    if (fixed) {
      const hit = fixed.get(method) ?? (method === 'HEAD' ? fixed.get('GET') : undefined)
      if (hit) return { route: hit, params: {} }
    }
    const parts = path.split('/').filter(Boolean)
    const candidates = this.bySize.get(parts.length)
    if (!candidates) return { status: 404 }
    // Only the most specific routes matching the path compete: `DELETE /indexes/x/documents/delete-batch` is a
    // 405, not a deletion of the document `delete-batch`.
    let best = -1
    for (const c of candidates) {
      if (c.specificity < best) break
      const params = matchSegments(c.segments, parts)
      if (params === null) continue
      best = c.specificity
      if (c.route.method === method || (method === 'HEAD' && c.route.method === 'GET')) return { route: c.route, params }
    }
    return { status: best >= 0 ? 405 : 404 }
  }
}

function matchSegments(pattern: string[], parts: string[]): Record<string, string> | null {
  let params: Record<string, string> | null = null
  for (let i = 0; i < pattern.length; i++) {
    const p = pattern[i]!
    if (p.charCodeAt(0) === 58 /* : */) (params ??= {})[p.slice(1)] = parts[i]!
    else if (p !== parts[i]) return null
  }
  return params ?? {}
}

/** A small path router: static segments and `:name` parameters; 404 for unknown paths, 405 for wrong methods. */
import type { Request, Response } from './types.js'

export interface RouteContext {
  req: Request
  params: Record<string, string>
}

export type RouteHandler<C> = (ctx: C & RouteContext) => Promise<Response> | Response

interface Route<C> {
  method: string
  segments: string[]
  handler: RouteHandler<C>
}

export type Match<C> = { handler: RouteHandler<C>; params: Record<string, string> } | { status: 404 | 405 }

export class Router<C> {
  private readonly routes: Route<C>[] = []

  on(method: string, pattern: string, handler: RouteHandler<C>): this {
    this.routes.push({ method, segments: pattern.split('/').filter(Boolean), handler })
    return this
  }

  match(method: string, path: string): Match<C> {
    const parts = path.split('/').filter(Boolean)
    let pathMatched = false
    // Static segments win over parameters (`/tasks/cancel` before `/tasks/:uid`).
    const candidates = this.routes
      .map((route) => ({ route, params: matchSegments(route.segments, parts) }))
      .filter((c): c is { route: Route<C>; params: Record<string, string> } => c.params !== null)
      .sort((a, b) => staticScore(b.route) - staticScore(a.route))
    // Only the most specific routes matching the path compete: `DELETE /indexes/x/documents/delete-batch` is a 405,
    // not a deletion of the document `delete-batch`.
    const best = candidates.length > 0 ? staticScore(candidates[0]!.route) : 0
    for (const { route, params } of candidates) {
      if (staticScore(route) < best) break
      pathMatched = true
      if (route.method === method || (method === 'HEAD' && route.method === 'GET')) return { handler: route.handler, params }
    }
    return { status: pathMatched ? 405 : 404 }
  }
}

function staticScore(route: { segments: string[] }): number {
  return route.segments.filter((s) => !s.startsWith(':')).length
}

function matchSegments(pattern: string[], parts: string[]): Record<string, string> | null {
  if (pattern.length !== parts.length) return null
  const params: Record<string, string> = {}
  for (let i = 0; i < pattern.length; i++) {
    const p = pattern[i]!
    if (p.startsWith(':')) params[p.slice(1)] = parts[i]!
    else if (p !== parts[i]) return null
  }
  return params
}

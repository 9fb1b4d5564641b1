/**
 * The search preview's routes, open to anyone (the page asks for a key when the API answers 401/403, and shows
 * what the key may see). Off in production and with `--no-preview`: `/` then answers as Meilisearch does without
 * its dashboard, and the page's files do not exist.
 */
import { json } from '../http/json.js'
import { open, route } from '../http/router.js'
import type { Response } from '../http/types.js'
import { PAGE_HEADERS, chartFile, listCharts, previewAssets } from '../preview/index.js'
import { fileResponse } from '../preview/static-files.js'
import type { AppContext, AppRoute, Ctx } from './context.js'

/** Unknown paths answer an empty 404 (see app.ts): so does the preview when it is off. */
const ABSENT: Response = { status: 404 }

function asset(ctx: Ctx, name: string): Response {
  const file = previewAssets().get(name)
  if (!file) return ABSENT
  return fileResponse(ctx.req, file, file.type.startsWith('text/html') ? PAGE_HEADERS : {})
}

export const previewRoutes: AppRoute[] = [
  route<AppContext>('GET', '/', open, (ctx) =>
    // Meilisearch's answer at `/` when its dashboard is off (routes::running).
    ctx.config.preview ? asset(ctx, 'index.html') : json(200, { status: 'Meilisearch is running' })),
  route<AppContext>('GET', '/preview/charts', open, (ctx) => (ctx.config.preview ? json(200, { results: listCharts() }) : ABSENT)),
  route<AppContext>('GET', '/preview/charts/:file', open, (ctx) => {
    const chart = ctx.config.preview ? chartFile(ctx.params.file!) : undefined
    return chart ? fileResponse(ctx.req, chart.file, chart.headers) : ABSENT
  }),
  // `index.html` is the page at `/` only.
  route<AppContext>('GET', '/preview/:file', open, (ctx) => (ctx.config.preview && ctx.params.file !== 'index.html' ? asset(ctx, ctx.params.file!) : ABSENT)),
]

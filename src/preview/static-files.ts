/**
 * Static files of the preview page, answered as a browser expects them: their content type, an ETag with a `304`
 * when it still matches, `Cache-Control: no-cache` (the browser keeps a copy and revalidates it: one cheap
 * round trip on loopback, and an upgraded package never serves stale code) and gzip when the client accepts it.
 * The page's folder is small and fixed, so it is read and compressed once; the bench charts are read per request
 * (they change when the bench runs again).
 */
import { createHash } from 'node:crypto'
import { readFileSync, readdirSync } from 'node:fs'
import { extname, join } from 'node:path'
import { gzipSync } from 'node:zlib'
import type { Request, Response } from '../http/types.js'

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
}

/** Files smaller than this are sent as they are: gzip would save less than its own header costs. */
const GZIP_MIN_BYTES = 256

export interface StaticFile {
  name: string
  type: string
  body: Buffer
  /** The gzip-compressed body; null when compressing does not pay. */
  gzip: Buffer | null
  etag: string
}

export function contentType(name: string): string | undefined {
  return CONTENT_TYPES[extname(name).toLowerCase()]
}

/** A file as served: its type from its extension (undefined for a kind the preview never serves). */
export function staticFile(name: string, body: Buffer): StaticFile | undefined {
  const type = contentType(name)
  if (type === undefined) return undefined
  const compressed = body.byteLength >= GZIP_MIN_BYTES ? gzipSync(body, { level: 9 }) : null
  const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`
  return { name, type, body, gzip: compressed && compressed.byteLength < body.byteLength ? compressed : null, etag }
}

/** Every servable file of `dir` (not its subfolders, nor files of other kinds), by name. */
export function loadFolder(dir: string): Map<string, StaticFile> {
  const files = new Map<string, StaticFile>()
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (!entry.isFile()) continue
    const file = staticFile(entry.name, readFileSync(join(dir, entry.name)))
    if (file) files.set(entry.name, file)
  }
  return files
}

/** Whether the client takes gzip (`Accept-Encoding: gzip`, not with `q=0`). */
export function acceptsGzip(req: Request): boolean {
  const header = req.headers.get('accept-encoding')
  if (!header) return false
  return header.split(',').some((part) => {
    const [coding, ...params] = part.trim().split(';')
    if (coding!.trim().toLowerCase() !== 'gzip' && coding!.trim() !== '*') return false
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='))
    return q === undefined || Number(q.slice(2)) > 0
  })
}

/** The response for `file`: a `304` when the client's copy is current, gzip when accepted. */
export function fileResponse(req: Request, file: StaticFile, headers: Record<string, string> = {}): Response {
  const common: Record<string, string> = {
    ...headers,
    etag: file.etag,
    'cache-control': 'no-cache',
    'x-content-type-options': 'nosniff',
  }
  if (file.gzip) common.vary = 'Accept-Encoding'
  const known = req.headers.get('if-none-match')
  if (known !== undefined && known.split(',').some((tag) => tag.trim().replace(/^W\//, '') === file.etag)) {
    return { status: 304, headers: common }
  }
  if (file.gzip && acceptsGzip(req)) {
    return { status: 200, headers: { ...common, 'content-type': file.type, 'content-encoding': 'gzip' }, body: file.gzip }
  }
  return { status: 200, headers: { ...common, 'content-type': file.type }, body: file.body }
}

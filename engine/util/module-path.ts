/**
 * The URL of a module that sits next to `fromUrl`, with the same extension. Worker threads are started from
 * compiled `.js` files in production and from `.ts` sources under the test runner (whose loader the worker
 * inherits), so the extension follows the caller's.
 */
export function siblingModule(fromUrl: string, relative: string): URL {
  const ext = fromUrl.endsWith('.ts') ? '.ts' : '.js'
  return new URL(relative + ext, fromUrl)
}

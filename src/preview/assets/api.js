// @ts-check
/**
 * The page's only way to the server: the public API, with `fetch`, the key as `Authorization: Bearer`. A `401` or
 * `403` asks for a key and tries again with it; other errors are thrown as `ApiError`s carrying Meilisearch's
 * `{message, code, type, link}`, for the page to show where they belong.
 */
import { askForKey, currentKey } from './keys.js'

export class ApiError extends Error {
  /**
   * @param {number} status
   * @param {{ message?: string, code?: string, type?: string } | null} body
   */
  constructor(status, body) {
    super(body?.message ?? `The server answered ${status}.`)
    this.status = status
    this.code = body?.code ?? null
    this.type = body?.type ?? null
  }
}

/**
 * @typedef {object} RequestOptions
 * @property {unknown} [body] sent as JSON
 * @property {AbortSignal} [signal]
 * @property {boolean} [prompt] ask for a key on 401/403 (default true); false for what the page can do without
 */

/**
 * @param {string} method
 * @param {string} path
 * @param {RequestOptions} [options]
 * @returns {Promise<any>} the JSON answer
 */
export async function api(method, path, options = {}) {
  for (;;) {
    /** @type {Record<string, string>} */
    const headers = { accept: 'application/json' }
    const key = currentKey()
    if (key) headers.authorization = `Bearer ${key}`
    if (options.body !== undefined) headers['content-type'] = 'application/json'
    const res = await fetch(path, { method, headers, body: options.body === undefined ? undefined : JSON.stringify(options.body), signal: options.signal })
    const text = await res.text()
    /** @type {any} */
    let body = null
    try {
      body = text ? JSON.parse(text) : null
    } catch {
      body = null
    }
    if (res.ok) return body
    const error = new ApiError(res.status, body)
    if ((res.status === 401 || res.status === 403) && options.prompt !== false && !options.signal?.aborted) {
      if (await askForKey(error.message)) continue
    }
    throw error
  }
}

/** @param {string} uid */
export function indexPath(uid) {
  return `/indexes/${encodeURIComponent(uid)}`
}

/**
 * The one request/response interface of the front end. Adapters (uWebSockets.js, node:http) produce a
 * `Request` and write a `Response`; routes never know which adapter serves them.
 */
export interface Request {
  /** Upper-case method. */
  method: string
  /** Path without the query string, as sent (percent-encoded). */
  path: string
  /** Query string without the `?`, as sent. */
  rawQuery: string
  /** Header names in lower case. */
  headers: Map<string, string>
  /** The body as sent on the wire (still compressed if it was), chunk by chunk, with backpressure. */
  body: AsyncIterable<Uint8Array>
}

export interface Response {
  status: number
  headers?: Record<string, string>
  /** Serialized body; absent for an empty body. */
  body?: string | Uint8Array
}

export type Handler = (req: Request) => Promise<Response>

export interface Listening {
  port: number
  /** Stop accepting connections and close the listening socket. */
  close(): Promise<void>
}

export interface HttpAdapter {
  readonly name: 'uws' | 'node'
  listen(host: string, port: number, handler: Handler): Promise<Listening>
}

export const STATUS_TEXT: Record<number, string> = {
  200: 'OK', 201: 'Created', 202: 'Accepted', 204: 'No Content', 304: 'Not Modified', 400: 'Bad Request', 401: 'Unauthorized',
  403: 'Forbidden', 404: 'Not Found', 405: 'Method Not Allowed', 409: 'Conflict', 412: 'Precondition Failed',
  413: 'Payload Too Large', 415: 'Unsupported Media Type', 422: 'Unprocessable Entity', 451: 'Unavailable For Legal Reasons',
  500: 'Internal Server Error', 501: 'Not Implemented', 502: 'Bad Gateway', 503: 'Service Unavailable',
}

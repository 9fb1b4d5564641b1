/**
 * Request framing both adapters refuse (RFC 9112 §6.1, §6.3, §7): a body whose length two parsers could read
 * differently lets a request be smuggled past a proxy. Such a request gets a bare `400` and the connection is
 * closed, since nothing after it on that connection can be trusted.
 *
 * - `Transfer-Encoding` must be exactly `chunked` (one coding, lower case): `xchunked`, `Chunked`, `gzip, chunked`
 *   or a repeated header are refused. Tessera decodes no transfer coding but chunked.
 * - `Content-Length` must be one run of decimal digits: a repeated header (even with equal values), a list, a sign
 *   or anything else is refused.
 * - Both at once are refused.
 *
 * Adapters join repeated headers with `, ` (node:http does for `transfer-encoding`; the uWS adapter does for all),
 * so a repeat shows here as a list. node:http's own parser already refuses most of these with a bare 400; uWS lets
 * them through to the adapter (its chunk-size parsing itself stays lenient: see the README).
 */

/** Why the request's framing is refused, or null when it is unambiguous. */
export function framingFault(headers: ReadonlyMap<string, string>): string | null {
  const te = headers.get('transfer-encoding')
  const cl = headers.get('content-length')
  if (te !== undefined && cl !== undefined) return 'both Transfer-Encoding and Content-Length'
  if (te !== undefined && te !== 'chunked') return `Transfer-Encoding \`${te}\` (only \`chunked\` is accepted)`
  if (cl !== undefined && !/^[0-9]{1,15}$/.test(cl)) return `Content-Length \`${cl}\``
  return null
}

/** The bare answer to a refused framing (the connection is closed after it). */
export const FRAMING_STATUS = 400

/**
 * Reading request bodies: `Content-Encoding` (gzip, deflate, br) is undone while streaming, and the payload size
 * limit is checked on every chunk, before and after decompression, so an oversize body (or a zip bomb) is cut
 * off early instead of being buffered first.
 */
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib'
import { Readable } from 'node:stream'
import { TesseraError } from '../../engine/errors/index.js'
import type { Request } from './types.js'

export function payloadTooLarge(limit: number): TesseraError {
  return new TesseraError('payload_too_large', `The provided payload reached the size limit. The maximum accepted payload size is ${formatBytes(limit)}.`)
}

/** Sizes as Meilisearch prints them (`100 MB`, `10 KiB`, ...): decimal units when exact, else binary. */
export function formatBytes(n: number): string {
  const dec: [number, string][] = [[1e12, 'TB'], [1e9, 'GB'], [1e6, 'MB'], [1e3, 'KB']]
  for (const [size, unit] of dec) if (n >= size && n % size === 0) return `${n / size} ${unit}`
  const bin: [number, string][] = [[2 ** 40, 'TiB'], [2 ** 30, 'GiB'], [2 ** 20, 'MiB'], [2 ** 10, 'KiB']]
  for (const [size, unit] of bin) if (n >= size && n % size === 0) return `${n / size} ${unit}`
  return `${n} B`
}

/** The request body, decoded, chunk by chunk; throws `payload_too_large` as soon as the limit is passed. */
export async function* decodedBody(req: Request, limit: number): AsyncGenerator<Uint8Array> {
  const declared = Number(req.headers.get('content-length'))
  if (Number.isFinite(declared) && declared > limit) throw payloadTooLarge(limit)
  const encoding = (req.headers.get('content-encoding') ?? 'identity').trim().toLowerCase()
  let raw = 0
  const limited = async function* () {
    for await (const chunk of req.body) {
      raw += chunk.byteLength
      if (raw > limit) throw payloadTooLarge(limit)
      yield chunk
    }
  }
  if (encoding === 'identity' || encoding === '') {
    yield* limited()
    return
  }
  const decoder = encoding === 'gzip' || encoding === 'x-gzip' ? createGunzip()
    : encoding === 'deflate' ? createInflate()
    : encoding === 'br' ? createBrotliDecompress()
    : null
  if (!decoder) {
    throw new TesseraError('unsupported_media_type', `Unsupported Content-Encoding \`${encoding}\`. Accepted values are \`gzip\`, \`deflate\`, \`br\` and \`identity\`.`)
  }
  const source = Readable.from(limited())
  source.on('error', (err) => decoder.destroy(err))
  source.pipe(decoder)
  let decoded = 0
  try {
    for await (const chunk of decoder as AsyncIterable<Buffer>) {
      decoded += chunk.byteLength
      if (decoded > limit) throw payloadTooLarge(limit)
      yield chunk
    }
  } catch (err) {
    if (err instanceof TesseraError) throw err
    throw new TesseraError('malformed_payload', `The request body could not be decompressed as \`${encoding}\`: ${(err as Error).message}.`)
  } finally {
    source.destroy()
    decoder.destroy()
  }
}

/** The whole decoded body in one buffer (for JSON routes; document payloads stream instead). */
export async function readBody(req: Request, limit: number): Promise<Buffer> {
  const parts: Uint8Array[] = []
  for await (const chunk of decodedBody(req, limit)) parts.push(chunk)
  return Buffer.concat(parts)
}

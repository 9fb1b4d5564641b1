import { TesseraError } from '../../engine/errors/index.js'

/** Meilisearch's message says 512 bytes; the check it actually makes is 400. We check what it checks. */
const MAX_UID_BYTES = 400

export function isValidIndexUid(uid: string): boolean {
  return uid.length > 0 && Buffer.byteLength(uid) <= MAX_UID_BYTES && /^[A-Za-z0-9_-]+$/.test(uid)
}

export function indexUidMessage(uid: string): string {
  return `\`${uid}\` is not a valid index uid. Index uid can be an integer or a string containing only alphanumeric characters, hyphens (-) and underscores (_), and can not be more than 512 bytes.`
}

/** Validate a uid taken from a path: the message has no location prefix. */
export function indexUidFromPath(raw: string): string {
  const uid = decodePathSegment(raw)
  if (!isValidIndexUid(uid)) throw new TesseraError('invalid_index_uid', indexUidMessage(uid))
  return uid
}

/** A path segment, percent-decoded; a malformed escape is kept as sent rather than failing the request. */
export function decodePathSegment(raw: string): string {
  try { return decodeURIComponent(raw) } catch { return raw }
}

/**
 * Cursors of the listings. n8n's cursor is base64 of `{limit, offset}`: anyone can write one, and an offset
 * skips or repeats items when others are created or deleted meanwhile. Tessera's cursor holds the seq of the last
 * item of the page (the next page starts after it: keyset paging) and the page size, authenticated by an
 * HMAC-SHA256 with the database's secret over those and the query it belongs to (which listing, which filters).
 * So a cursor that was garbled, forged, or issued for another listing or other filters is refused with n8n's
 * "An invalid cursor was provided"; an authentic one always resumes exactly where its page ended.
 *
 * Wire form: base64url (no padding, nothing to percent-encode in a query string) of
 *   version (1) ‖ listing (1) ‖ limit (1) ‖ after seq (8, big-endian) ‖ MAC (16, truncated HMAC)
 */
import { createHmac, timingSafeEqual } from 'node:crypto'
import { invalidCursor } from './errors.js'

export type Listing = 'workflows' | 'tags' | 'projects'
const LISTING_BYTE: Record<Listing, number> = { workflows: 1, tags: 2, projects: 3 }

const VERSION = 1
const BODY_BYTES = 11
const MAC_BYTES = 16
const ENCODED_LENGTH = Math.ceil(((BODY_BYTES + MAC_BYTES) * 4) / 3)

export interface CursorState {
  /** The seq of the last item already answered. */
  after: number
  /** The page size, which the cursor imposes on the pages after (as n8n's cursor does). */
  limit: number
}

export class CursorCodec {
  constructor(private readonly secret: Buffer) {}

  /** `scope` names the query: the same listing with the same filters must give the same scope. */
  encode(listing: Listing, scope: string, state: CursorState): string {
    const body = Buffer.alloc(BODY_BYTES)
    body[0] = VERSION
    body[1] = LISTING_BYTE[listing]
    body[2] = state.limit
    body.writeUInt32BE(Math.floor(state.after / 2 ** 32), 3)
    body.writeUInt32BE(state.after >>> 0, 7)
    return Buffer.concat([body, this.mac(body, scope)]).toString('base64url')
  }

  /** The state of an authentic cursor of this listing and scope; anything else throws n8n's invalid-cursor error. */
  decode(listing: Listing, scope: string, text: string): CursorState {
    if (text.length !== ENCODED_LENGTH || !/^[A-Za-z0-9_-]+$/.test(text)) throw invalidCursor()
    const bytes = Buffer.from(text, 'base64url')
    if (bytes.length !== BODY_BYTES + MAC_BYTES) throw invalidCursor()
    const body = bytes.subarray(0, BODY_BYTES)
    if (!timingSafeEqual(bytes.subarray(BODY_BYTES), this.mac(body, scope))) throw invalidCursor()
    if (body[0] !== VERSION || body[1] !== LISTING_BYTE[listing]) throw invalidCursor()
    return { limit: body[2]!, after: body.readUInt32BE(3) * 2 ** 32 + body.readUInt32BE(7) }
  }

  private mac(body: Buffer, scope: string): Buffer {
    return createHmac('sha256', this.secret).update(body).update(scope, 'utf8').digest().subarray(0, MAC_BYTES)
  }
}

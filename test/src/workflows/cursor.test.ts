/**
 * Cursors: an authentic cursor decodes to the state it was made from; anything else (garbled, truncated, forged,
 * n8n's own offset cursors, another listing's, another query's, another database's) is n8n's invalid cursor.
 */
import t from 'tap'
import { randomBytes } from 'node:crypto'
import { CursorCodec } from '../../../src/workflows/cursor.js'
import { ApiError } from '../../../src/workflows/errors.js'

const secret = randomBytes(32)
const codec = new CursorCodec(secret)
const scope = JSON.stringify([true, ['prod'], null, null])

function refused(text: string, listing: 'workflows' | 'tags' = 'workflows', s = scope, c = codec): boolean {
  try {
    c.decode(listing, s, text)
    return false
  } catch (err) {
    return err instanceof ApiError && err.status === 400 && err.message === 'An invalid cursor was provided'
  }
}

t.test('round trip', async (t) => {
  for (const state of [{ after: 0, limit: 1 }, { after: 1, limit: 250 }, { after: 2 ** 40 + 7, limit: 100 }, { after: 2 ** 53 - 1, limit: 7 }]) {
    const text = codec.encode('workflows', scope, state)
    t.match(text, /^[A-Za-z0-9_-]{36}$/, 'base64url: nothing to escape in a query string')
    t.same(codec.decode('workflows', scope, text), state)
  }
})

t.test('garbled, forged and foreign cursors are refused', async (t) => {
  const good = codec.encode('workflows', scope, { after: 42, limit: 10 })
  const bytes = Buffer.from(good, 'base64url')
  t.ok(refused('abc'), 'garbage')
  t.ok(refused(''), 'empty')
  t.ok(refused(good.slice(0, -1)), 'truncated')
  t.ok(refused(good + 'A'), 'extended')
  t.ok(refused(good.replace(/^./, (c) => (c === 'A' ? 'B' : 'A'))), 'one character changed')
  t.ok(refused(`${good.slice(0, 34)}==`), 'padding')
  t.ok(refused(Buffer.from(JSON.stringify({ limit: 100, offset: 100 })).toString('base64')), "n8n's own offset cursor")
  const forged = Buffer.from(bytes)
  forged.writeUInt32BE(7, 7) // another `after`, same MAC
  t.ok(refused(forged.toString('base64url')), 'a forged position')
  const bigger = Buffer.from(bytes)
  bigger[2] = 200
  t.ok(refused(bigger.toString('base64url')), 'a forged page size')
  t.ok(refused(good, 'tags'), "another listing's")
  t.ok(refused(good, 'workflows', JSON.stringify([false, ['prod'], null, null])), "another query's")
  t.ok(refused(good, 'workflows', scope, new CursorCodec(randomBytes(32))), "another database's")
  // A random MAC passes with probability 2^-128.
  t.ok(Array.from({ length: 500 }, () => randomBytes(27).toString('base64url')).every((text) => refused(text)), '500 random cursors of the right length')
})

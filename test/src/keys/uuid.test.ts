/** src/keys/uuid.ts: `Uuid::from_str`'s forms and messages (`tests/auth/errors.rs`, `api_keys.rs`). */
import t from 'tap'
import { parseUuid } from '../../../src/keys/uuid.js'

t.test('accepted forms, canonical output', async (t) => {
  const canonical = '4bc0887a-0e41-4f3b-935d-0c451dcee9c8'
  for (const form of [canonical, canonical.toUpperCase(), canonical.replace(/-/g, ''), `{${canonical}}`, `urn:uuid:${canonical}`]) {
    t.same(parseUuid(form), { ok: true, uid: canonical }, form)
  }
})

t.test('messages', async (t) => {
  t.same(parseUuid('doggo'), { ok: false, message: 'invalid character: found `o` at 1' })
  t.same(parseUuid('aaaaabbbbbccc'), { ok: false, message: 'invalid length: expected length 32 for simple format, found 13' })
  t.same(parseUuid('4bc0887a-0e41-4f3b-935d'), { ok: false, message: 'invalid group count: expected 5, found 4' })
  t.same(parseUuid('4bc0887-a0e41-4f3b-935d-0c451dcee9c8'), { ok: false, message: 'invalid group length in group 0: expected 8, found 7' })
  t.same(parseUuid(''), { ok: false, message: 'invalid length: expected length 32 for simple format, found 0' })
})

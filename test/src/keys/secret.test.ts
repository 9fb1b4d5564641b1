/**
 * src/keys/secret.ts: key values derived as Meilisearch derives them (the values of `tests/auth/api_keys.rs` and
 * `errors.rs` for the master key `MASTER_KEY`), and secret comparisons made by `crypto.timingSafeEqual`.
 */
import t from 'tap'
import crypto from 'node:crypto'
import { deriveKeyValue, sameBytes, sameSecret } from '../../../src/keys/secret.js'

t.test('derivation matches Meilisearch\'s snapshots', async (t) => {
  t.equal(deriveKeyValue('MASTER_KEY', '4bc0887a-0e41-4f3b-935d-0c451dcee9c8'), 'd9e776b8412f1db6974c9a5556b961c3559440b6588216f4ea5d9ed49f7c8f3c')
  t.equal(deriveKeyValue('MASTER_KEY', '00000000-0000-0000-0000-000000000000'), 'aeb94973e0b6e912d94165430bbe87dee91a7c4f891ce19050c3910ec96977e9')
  t.not(deriveKeyValue('OTHER_MASTER_KEY', '00000000-0000-0000-0000-000000000000'), 'aeb94973e0b6e912d94165430bbe87dee91a7c4f891ce19050c3910ec96977e9', 'another master key, another value')
})

t.test('comparisons are correct and go through crypto.timingSafeEqual', async (t) => {
  const original = crypto.timingSafeEqual
  let calls = 0
  crypto.timingSafeEqual = ((a: NodeJS.ArrayBufferView, b: NodeJS.ArrayBufferView) => { calls++; return original(a, b) }) as typeof crypto.timingSafeEqual
  t.teardown(() => { crypto.timingSafeEqual = original })
  t.ok(sameSecret('MASTER_KEY', 'MASTER_KEY'))
  t.notOk(sameSecret('MASTER_KEY', 'MASTER_KEX'))
  t.notOk(sameSecret('MASTER', 'MASTER_KEY'), 'different lengths compare too (hashed first)')
  t.notOk(sameSecret('', 'MASTER_KEY'))
  t.equal(calls, 4, 'every secret comparison is the timing-safe one')
  t.ok(sameBytes(Buffer.from('abc'), Buffer.from('abc')))
  t.notOk(sameBytes(Buffer.from('abc'), Buffer.from('abd')))
  t.equal(calls, 6)
  t.notOk(sameBytes(Buffer.from('abc'), Buffer.from('abcd')), 'different lengths: refused without comparing')
})

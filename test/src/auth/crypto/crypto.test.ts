/** Hashing, tokens and API-key encryption as Payload does them. */
import t from 'tap'
import { createHash, createHmac, pbkdf2Sync } from 'node:crypto'
import jwt from 'jsonwebtoken'
import { hashPassword, verifyPassword } from '../../../../src/auth/crypto/password.js'
import { TokenSigner, deriveSecret } from '../../../../src/auth/crypto/jwt.js'
import { apiKeyIndex, decryptAPIKey, encryptAPIKey } from '../../../../src/auth/crypto/api-key.js'
import { newId, randomToken } from '../../../../src/auth/crypto/random-token.js'

t.test('passwords: 32-byte hex salt, PBKDF2-SHA256 25000 x 512 over the salt string, hex', async (t) => {
  const { salt, hash } = await hashPassword('s3cret')
  t.match(salt, /^[0-9a-f]{64}$/)
  t.match(hash, /^[0-9a-f]{1024}$/)
  t.equal(hash, pbkdf2Sync('s3cret', salt, 25000, 512, 'sha256').toString('hex'), 'exactly Payload\'s derivation')
  t.equal(await verifyPassword('s3cret', salt, hash), true)
  t.equal(await verifyPassword('s3cret!', salt, hash), false)
  t.equal(await verifyPassword('s3cret', salt, hash.slice(2)), false, 'a malformed hash is a mismatch, not a crash')
  t.equal(await verifyPassword('s3cret', undefined, undefined), false)
  // A hash from a newer Payload (parameters embedded) still verifies.
  const v2 = `pbkdf2-sha256-v2-i1000-l32:${pbkdf2Sync('pw', 'salt', 1000, 32, 'sha256').toString('hex')}`
  t.equal(await verifyPassword('pw', 'salt', v2), true)
  t.equal(await verifyPassword('px', 'salt', v2), false)
  const same = await Promise.all(Array.from({ length: 20 }, () => verifyPassword('s3cret', salt, hash)))
  t.ok(same.every(Boolean), 'concurrent identical checks agree')
})

t.test('tokens: derived key, HS256, expiry, tampering, cache', async (t) => {
  const key = deriveSecret('my-secret')
  t.equal(key, createHash('sha256').update('my-secret').digest('hex').slice(0, 32))
  const signer = new TokenSigner(key)
  const { token, exp } = signer.sign({ id: 'u1', collection: 'users', email: 'a@b.co' }, 60)
  const decoded = jwt.decode(token, { complete: true })!
  t.same(decoded.header, { alg: 'HS256', typ: 'JWT' })
  t.match(signer.verify(token), { id: 'u1', collection: 'users', email: 'a@b.co', exp })
  t.equal(signer.verify(token), signer.verify(token), 'served from the cache the second time')
  const [h, p, s] = token.split('.')
  const forged = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(p!, 'base64url').toString()), id: 'admin' })).toString('base64url')
  t.equal(signer.verify(`${h}.${forged}.${s}`), null, 'a tampered payload is refused')
  t.equal(signer.verify(`${h}.${p}.${s!.slice(0, -2)}xx`), null, 'a tampered signature is refused')
  t.equal(signer.verify(jwt.sign({ id: 'u1', collection: 'users' }, 'other-key')), null, 'another key is refused')
  t.equal(signer.verify(jwt.sign({ id: 'u1', collection: 'users' }, key, { algorithm: 'HS512' })), null, 'another algorithm is refused')
  t.equal(signer.verify('garbage'), null)
  // Two seconds: with one, a verification that crossed a second boundary (a busy machine) already found it expired.
  const expired = signer.sign({ id: 'u1', collection: 'users', email: 'a@b.co' }, 2)
  t.ok(signer.verify(expired.token), 'valid at first')
  // Wait on the clock passing the token's `exp` rather than for a fixed time.
  const expiry = (JSON.parse(Buffer.from(expired.token.split('.')[1]!, 'base64url').toString()) as { exp: number }).exp
  while (Math.floor(Date.now() / 1000) < expiry) await new Promise((r) => setTimeout(r, 50))
  t.equal(signer.verify(expired.token), null, 'refused once expired, even from the cache')
})

t.test('API keys: AES-256-CTR with a random IV, HMAC-SHA256 index', async (t) => {
  const key = deriveSecret('my-secret')
  const a = encryptAPIKey('0123456789ABCDEFGH', key)
  const b = encryptAPIKey('0123456789ABCDEFGH', key)
  t.not(a, b, 'a fresh IV each time')
  t.notMatch(a, /0123456789ABCDEFGH/)
  t.equal(decryptAPIKey(a, key), '0123456789ABCDEFGH')
  t.equal(apiKeyIndex('0123456789ABCDEFGH', key), createHmac('sha256', key).update('0123456789ABCDEFGH').digest('hex'))
})

t.test('random tokens and ids', async (t) => {
  const tokens = new Set(Array.from({ length: 100 }, randomToken))
  t.equal(tokens.size, 100)
  for (const token of tokens) t.match(token, /^[0-9a-f]{40}$/)
  const ids = Array.from({ length: 50 }, () => newId())
  t.same([...ids].sort(), ids, 'ids sort in creation order')
  t.equal(new Set(ids).size, 50)
})

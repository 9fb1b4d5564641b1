/**
 * src/keys/tenant-token.ts: JWT verification with Meilisearch's messages (`tests/auth/errors.rs`
 * `invalid_tenant_token`: claims read before the signature, serde's positions), the algorithms, forged, truncated
 * and expired tokens, and the cache (bounded, expiry honoured on every use). Tokens are signed with the
 * `jsonwebtoken` package, independently of the code under test.
 */
import t from 'tap'
import jwt from 'jsonwebtoken'
import { createHmac } from 'node:crypto'
import { TesseraError } from '../../../engine/errors/index.js'
import { deriveKeyValue } from '../../../src/keys/secret.js'
import { TenantTokens } from '../../../src/keys/tenant-token.js'
import { fuseFilters, ruleFilter, isIndexAuthorizedBy } from '../../../src/keys/search-rules.js'

const NIL = '00000000-0000-0000-0000-000000000000'
const valueOf = (uid: string) => deriveKeyValue('MASTER_KEY', uid)
const KEY = valueOf(NIL)
/** A token over claims given as raw JSON text (the `jsonwebtoken` package refuses to sign malformed claims). */
const rawSign = (claims: string, secret = KEY) => {
  const input = `${Buffer.from('{"alg":"HS256","typ":"JWT"}').toString('base64url')}.${Buffer.from(claims).toString('base64url')}`
  return `${input}.${createHmac('sha256', secret).update(input).digest('base64url')}`
}
const sign = (claims: object, secret = KEY, algorithm: jwt.Algorithm = 'HS256') => jwt.sign(claims, secret, { algorithm, noTimestamp: true })

function message(tokens: TenantTokens, token: string, now?: number): string {
  try {
    tokens.verify(token, now)
  } catch (e) {
    if (e instanceof TesseraError) { t.equal(e.code, 'invalid_api_key'); return e.message }
    throw e
  }
  return 'accepted'
}

t.test('Meilisearch\'s messages for bad claims and signatures', async (t) => {
  const tokens = new TenantTokens(valueOf)
  t.equal(message(tokens, sign({ tamo: 'kefir' }, 'tamo')), 'Could not decode tenant token, JSON error: missing field `searchRules` at line 1 column 16.')
  t.equal(message(tokens, sign({ searchRules: 'kefir' }, 'tamo')), 'Could not decode tenant token, JSON error: data did not match any variant of untagged enum SearchRules at line 1 column 23.')
  t.equal(message(tokens, sign({ searchRules: ['kefir'], apiKeyUid: NIL }, 'tamo')), 'Could not decode tenant token, InvalidSignature.')
  t.equal(message(tokens, sign({ searchRules: ['*'] })), 'Could not decode tenant token, JSON error: missing field `apiKeyUid` at line 1 column 21.')
  t.equal(message(tokens, sign({ searchRules: ['*'], apiKeyUid: 'doggo' })), 'Could not decode tenant token, JSON error: UUID parsing failed: invalid character: found `o` at 1 at line 1 column 40.')
  t.equal(message(tokens, rawSign(`{"searchRules":["*"],"apiKeyUid":"${NIL}","exp":"soon"}`)), 'Could not decode tenant token, JSON error: invalid type: string "soon", expected i64 at line 1 column 84.')
  t.equal(message(tokens, rawSign(`{"searchRules":["*"],"apiKeyUid":"${NIL}","exp":1.5}`)), 'Could not decode tenant token, JSON error: invalid type: floating point `1.5`, expected i64 at line 1 column 81.')
  t.equal(message(tokens, rawSign(`{"searchRules":["*"], "exp":[1],"apiKeyUid":"${NIL}"}`)), 'Could not decode tenant token, JSON error: invalid type: sequence, expected i64 at line 1 column 28.', 'a container is refused before it is read')
  t.equal(message(tokens, rawSign(`{"searchRules":["*"],"searchRules":["*"]}`)), 'Could not decode tenant token, JSON error: duplicate field `searchRules` at line 1 column 34.')
  t.equal(message(tokens, sign({ searchRules: ['*'], apiKeyUid: NIL, aud: 'x' })), 'Could not decode tenant token, InvalidAudience.')
  const rs = `${Buffer.from('{"alg":"RS256","typ":"JWT"}').toString('base64url')}.${Buffer.from(JSON.stringify({ searchRules: ['*'], apiKeyUid: NIL })).toString('base64url')}.sig`
  t.equal(message(tokens, rs), 'Could not decode tenant token, InvalidAlgorithm.')
  const none = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from(JSON.stringify({ searchRules: ['*'], apiKeyUid: NIL })).toString('base64url')}.`
  t.match(message(tokens, none), /^Could not decode tenant token, JSON error: unknown variant `none`, expected one of `HS256`, `HS384`, `HS512`/)
  t.match(message(tokens, 'a=b.c.d'), /^Could not decode tenant token, Base64 error: Invalid symbol 61, offset 1\.\.$/)
  t.match(message(tokens, 'e30.bm90IGpzb24.x'), /^Could not decode tenant token, JSON error: /, 'a payload that is not JSON')
})

t.test('valid tokens: algorithms, rules, expiry', async (t) => {
  const tokens = new TenantTokens(valueOf)
  for (const algorithm of ['HS256', 'HS384', 'HS512'] as const) {
    const v = tokens.verify(sign({ searchRules: { '*': {}, sales: { filter: 'color = blue' } }, apiKeyUid: NIL }, KEY, algorithm))
    t.equal(v?.apiKeyUid, NIL, algorithm)
    t.equal(ruleFilter(v!.searchRules, 'sales'), 'color = blue', 'the exact pattern wins')
    t.equal(ruleFilter(v!.searchRules, 'other'), undefined)
  }
  t.equal(tokens.verify(KEY), null, 'an API key is no JWT')
  t.equal(tokens.verify('a.b'), null, 'two parts are no JWT either')
  const now = 1_900_000_000
  const expiring = sign({ searchRules: ['sa*'], apiKeyUid: NIL, exp: now })
  t.ok(tokens.verify(expiring, now), 'valid up to its exp, included')
  t.equal(message(tokens, expiring, now + 1), `Tenant token expired. Was valid up to \`${now}\` and we're now \`${now + 1}\`.`, 'the expiry is checked on a cached token too')
  const rules = tokens.verify(sign({ searchRules: ['sa*'], apiKeyUid: NIL }))!.searchRules
  t.ok(isIndexAuthorizedBy(rules, 'sales'))
  t.notOk(isIndexAuthorizedBy(rules, 'products'))
  const nested = tokens.verify(sign({ searchRules: { '*': { filter: 'a = 1' }, 'sal*': { filter: ['b = 2'] }, sales: null }, apiKeyUid: NIL }))!.searchRules
  t.equal(ruleFilter(nested, 'sales'), undefined, 'the most specific rule wins even when it is null')
  t.same(ruleFilter(nested, 'salt'), ['b = 2'], 'the longest pattern wins over `*`')
})

t.test('forged and truncated tokens', async (t) => {
  const tokens = new TenantTokens(valueOf)
  const good = sign({ searchRules: ['products'], apiKeyUid: NIL })
  const wide = sign({ searchRules: ['*'], apiKeyUid: NIL })
  const [h, , s] = good.split('.')
  t.equal(message(tokens, `${h}.${wide.split('.')[1]}.${s}`), 'Could not decode tenant token, InvalidSignature.', 'another payload under the same signature')
  t.equal(message(tokens, good.slice(0, -2)), 'Could not decode tenant token, InvalidSignature.', 'truncated signature')
  t.equal(message(tokens, `${good}=`), 'Could not decode tenant token, InvalidSignature.', 'padding is not base64url')
  t.equal(message(tokens, sign({ searchRules: ['*'], apiKeyUid: NIL }, deriveKeyValue('OTHER', NIL))), 'Could not decode tenant token, InvalidSignature.', 'signed with another master key\'s value')
  t.equal(tokens.verify(good.split('.').slice(0, 2).join('.')), null, 'without its signature part it is no JWT')
})

t.test('the cache: hits skip the signature check, and it stays bounded', async (t) => {
  let derivations = 0
  const tokens = new TenantTokens((uid) => { derivations++; return valueOf(uid) }, 3)
  const list = Array.from({ length: 5 }, (_, i) => sign({ searchRules: [`i${i}`], apiKeyUid: NIL }))
  tokens.verify(list[0]!)
  tokens.verify(list[0]!)
  t.equal(derivations, 1, 'the second use is a cache hit')
  for (const token of list) tokens.verify(token)
  t.equal(tokens.size, 3, 'bounded')
  derivations = 0
  tokens.verify(list[4]!)
  t.equal(derivations, 0, 'recent tokens are kept')
  tokens.verify(list[0]!)
  t.equal(derivations, 1, 'the least recently used was evicted')
})

t.test('fusing filters ANDs at the outer level', async (t) => {
  t.equal(fuseFilters(undefined, 'a = 1'), 'a = 1')
  t.equal(fuseFilters('b = 2', undefined), 'b = 2')
  t.same(fuseFilters('b = 2', 'a = 1'), ['b = 2', 'a = 1'])
  t.same(fuseFilters(['b = 2', ['c = 3', 'd = 4']], ['a = 1']), ['b = 2', ['c = 3', 'd = 4'], 'a = 1'], 'OR groups stay OR groups')
})

/**
 * src/api/keys.ts: `/keys` request bodies and parameters with the codes and messages of Meilisearch's snapshots
 * (`tests/auth/errors.rs`, `api_keys.rs`).
 */
import t from 'tap'
import { TesseraError } from '../../../engine/errors/index.js'
import { parseCreateKey, parseKeyPage, parsePatchKey } from '../../../src/api/keys.js'

function failure(fn: () => unknown): string {
  try { fn() } catch (e) { if (e instanceof TesseraError) return `${e.code}: ${e.message}`; throw e }
  return 'accepted'
}

const ok = { indexes: ['products'], actions: ['documents.add'], expiresAt: '2050-11-13T00:00:00Z' }

t.test('POST /keys', async (t) => {
  const key = parseCreateKey({ ...ok, name: 'n', description: null, uid: '4BC0887A0E414F3B935D0C451DCEE9C8' })
  t.same({ ...key, expiresAt: key.expiresAt!.at }, { uid: '4bc0887a-0e41-4f3b-935d-0c451dcee9c8', name: 'n', description: null, actions: ['documents.add'], indexes: ['products'], expiresAt: Date.UTC(2050, 10, 13) * 1000 })
  t.match(parseCreateKey({ ...ok, expiresAt: null }).uid, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/, 'a random v4 uid')
  const cases: [unknown, string][] = [
    [{ description: ['doggo'] }, 'invalid_api_key_description: Invalid value type at `.description`: expected a string, but found an array: `["doggo"]`'],
    [{ name: ['doggo'] }, 'invalid_api_key_name: Invalid value type at `.name`: expected a string, but found an array: `["doggo"]`'],
    [{ uid: ['doggo'] }, 'invalid_api_key_uid: Invalid value type at `.uid`: expected a string, but found an array: `["doggo"]`'],
    [{ uid: 'doggo' }, 'invalid_api_key_uid: Invalid value at `.uid`: invalid character: found `o` at 1'],
    [{ ...ok, uid: 'aaaaabbbbbccc' }, 'invalid_api_key_uid: Invalid value at `.uid`: invalid length: expected length 32 for simple format, found 13'],
    [{ actions: 'doggo' }, 'invalid_api_key_actions: Invalid value type at `.actions`: expected an array, but found a string: `"doggo"`'],
    [{ indexes: 'doggo' }, 'invalid_api_key_indexes: Invalid value type at `.indexes`: expected an array, but found a string: `"doggo"`'],
    [{ indexes: ['good doggo'] }, 'invalid_api_key_indexes: Invalid value at `.indexes[0]`: `good doggo` is not a valid index uid pattern. Index uid patterns can be an integer or a string containing only alphanumeric characters, hyphens (-), underscores (_), and optionally end with a star (*).'],
    [{ expires_at: ['doggo'] }, 'bad_request: Unknown field `expires_at`: did you mean `expiresAt`? expected one of `description`, `name`, `uid`, `actions`, `indexes`, `expiresAt`'],
    [{ indexes: ['doggo'], expiresAt: null }, 'missing_api_key_actions: Missing field `actions`'],
    [{ uid: '00000000-0000-0000-0000-000000000000', actions: ['*'], expiresAt: null }, 'missing_api_key_indexes: Missing field `indexes`'],
    [{ uid: '00000000-0000-0000-0000-000000000000', actions: ['*'], indexes: ['doggo'] }, 'missing_api_key_expires_at: Missing field `expiresAt`'],
    [{ uid: '00000000-0000-0000-0000-000000000000', actions: ['*'], indexes: ['doggo'], expiresAt: null, doggo: 'bork' }, 'bad_request: Unknown field `doggo`: expected one of `description`, `name`, `uid`, `actions`, `indexes`, `expiresAt`'],
    [{ ...ok, expiresAt: { name: 'products' } }, 'invalid_api_key_expires_at: Invalid value type at `.expiresAt`: expected a string, but found an object: `{"name":"products"}`'],
    [{ ...ok, expiresAt: '2010-11-13T00:00:00Z' }, "invalid_api_key_expires_at: Invalid value at `.expiresAt`: `2010-11-13T00:00:00Z` is not a valid date. It should follow the RFC 3339 format to represents a date or datetime in the future or specified as a null value. e.g. 'YYYY-MM-DD' or 'YYYY-MM-DD HH:MM:SS'.\n"],
    [{ description: 'x', foo: 1, name: 5 }, 'bad_request: Unknown field `foo`: expected one of `description`, `name`, `uid`, `actions`, `indexes`, `expiresAt`'],
    [{ name: 5, foo: 1 }, 'invalid_api_key_name: Invalid value type at `.name`: expected a string, but found a positive integer: `5`', ],
    [[], 'bad_request: Invalid value type: expected an object, but found an array: `[]`'],
  ]
  for (const [body, expected] of cases) t.equal(failure(() => parseCreateKey(body)), expected, JSON.stringify(body))
  t.match(failure(() => parseCreateKey({ ...ok, actions: ['doc.add'] })), /^invalid_api_key_actions: Unknown value `doc.add` at `.actions\[0\]`: expected one of `\*`, `search`, `documents.\*`, .*`dynamicSearchRules.\*`$/)
  t.match(failure(() => parseCreateKey({ ...ok, actions: ['version'] })), /^index_scoped_api_key_with_global_action: .*`version`/)
  t.match(failure(() => parseCreateKey({ ...ok, indexes: [], actions: ['keys.get'] })), /^index_scoped_api_key_with_global_action: /)
  t.equal(failure(() => parseCreateKey({ ...ok, actions: ['*', 'tasks.*', 'dumps.create'], indexes: ['*'] })), 'accepted', 'on every index, global actions are fine')
  t.equal(failure(() => parseCreateKey({ ...ok, actions: ['*', '*.get', 'tasks.*'] })), 'accepted', 'wildcards are fine on some indexes')
})

t.test('PATCH /keys/{key}', async (t) => {
  t.same(parsePatchKey({}), {})
  t.same(parsePatchKey({ name: 'bob', description: null }), { name: 'bob', description: null })
  const cases: [unknown, string][] = [
    [{ description: ['doggo'] }, 'invalid_api_key_description: Invalid value type at `.description`: expected a string, but found an array: `["doggo"]`'],
    [{ name: 13 }, 'invalid_api_key_name: Invalid value type at `.name`: expected a string, but found a positive integer: `13`'],
    [{ uid: 'doggo' }, 'immutable_api_key_uid: Immutable field `uid`: expected one of `description`, `name`'],
    [{ actions: 'doggo' }, 'immutable_api_key_actions: Immutable field `actions`: expected one of `description`, `name`'],
    [{ indexes: 'doggo' }, 'immutable_api_key_indexes: Immutable field `indexes`: expected one of `description`, `name`'],
    [{ expiresAt: 'doggo' }, 'immutable_api_key_expires_at: Immutable field `expiresAt`: expected one of `description`, `name`'],
    [{ createdAt: 'doggo' }, 'immutable_api_key_created_at: Immutable field `createdAt`: expected one of `description`, `name`'],
    [{ updatedAt: 'doggo' }, 'immutable_api_key_updated_at: Immutable field `updatedAt`: expected one of `description`, `name`'],
    [{ doggo: 'bork' }, 'bad_request: Unknown field `doggo`: expected one of `description`, `name`'],
  ]
  for (const [body, expected] of cases) t.equal(failure(() => parsePatchKey(body)), expected, JSON.stringify(body))
})

t.test('GET /keys parameters', async (t) => {
  t.same(parseKeyPage(''), { offset: 0, limit: 20 })
  t.same(parseKeyPage('offset=2&limit=3'), { offset: 2, limit: 3 })
  t.equal(failure(() => parseKeyPage('offset=doggo')), 'invalid_api_key_offset: Invalid value in parameter `offset`: could not parse `doggo` as a positive integer')
  t.equal(failure(() => parseKeyPage('limit=doggo')), 'invalid_api_key_limit: Invalid value in parameter `limit`: could not parse `doggo` as a positive integer')
  t.equal(failure(() => parseKeyPage('doggo=no_limit')), 'bad_request: Unknown parameter `doggo`: expected one of `offset`, `limit`')
})

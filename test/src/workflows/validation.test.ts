/**
 * Request validation with express-openapi-validator's messages: query parameters (unknown, empty, coerced,
 * bounded) and bodies (required, additional, read-only, types, enums, anyOf), in Ajv's order.
 */
import t from 'tap'
import { checkQuery, parseQueryString } from '../../../src/workflows/query.js'
import { validate, validationMessage } from '../../../src/workflows/schema.js'
import { WORKFLOW_SCHEMA, TAG_IDS_SCHEMA } from '../../../src/workflows/bodies.js'
import { LIMIT_SCHEMA } from '../../../src/workflows/paging.js'
import { ApiError } from '../../../src/workflows/errors.js'

const LIST = { active: { type: 'boolean' }, tags: { type: 'string' }, limit: LIMIT_SCHEMA, cursor: { type: 'string' } } as const

function queryMessage(raw: string): string {
  try {
    const { errors } = checkQuery(raw, LIST)
    return validationMessage(errors)
  } catch (err) {
    return err instanceof ApiError ? `${err.status} ${err.message}` : String(err)
  }
}

t.test('query strings are parsed as qs does', async (t) => {
  t.same([...parseQueryString('name=My+Workflow&tags=a%2Cb&x=%ZZ&flag&&=v&tags=c')], [
    ['name', 'My Workflow'], ['tags', ['a,b', 'c']], ['x', '%ZZ'], ['flag', ''],
  ])
})

t.test('query parameters', async (t) => {
  const cases: [string, string][] = [
    ['limit=251', 'request/query/limit must be <= 250'],
    ['limit=0', 'request/query/limit must be >= 1'],
    ['limit=-1', 'request/query/limit must be >= 1'],
    ['limit=abc', 'request/query/limit must be number'],
    ['limit=2.5', 'request/query/limit must be integer'],
    ['limit=1&limit=2', 'request/query/limit must be number'],
    ['active=yes&limit=300', 'request/query/active must be boolean, request/query/limit must be <= 250'],
    ['limit=300&active=yes', 'request/query/active must be boolean, request/query/limit must be <= 250'],
    ['limit=', "400 Empty value found for query parameter 'limit'"],
    ['foo=1&limit=999', "400 Unknown query parameter 'foo'"],
    ['limit=999&foo=1', "400 Unknown query parameter 'foo'"],
    ['limit=250&active=false&tags=x', ''],
  ]
  for (const [raw, message] of cases) t.equal(queryMessage(raw), message, raw)
  t.same(checkQuery('limit=%2025&active=true', LIST).values, { limit: 25, active: true }, 'coerced values')
})

t.test('workflow bodies', async (t) => {
  const message = (body: unknown) => validationMessage(validate(WORKFLOW_SCHEMA, body, '/body'))
  t.equal(message({}), "request/body must have required property 'name', request/body must have required property 'nodes', request/body must have required property 'connections', request/body must have required property 'settings'")
  t.equal(message([]), 'request/body must be object')
  const ok = { name: 'x', nodes: [], connections: {}, settings: {} }
  t.equal(message(ok), '')
  t.equal(message({ ...ok, staticData: null, pinData: null }), '', 'nullable static and pinned data')
  t.equal(message({ ...ok, active: true, id: 'abc' }), 'request/body/id is read-only, request/body/active is read-only')
  t.equal(message({ ...ok, bogus: 1 }), 'request/body must NOT have additional properties')
  t.equal(message({ ...ok, name: 5 }), 'request/body/name must be string')
  t.equal(message({ ...ok, nodes: [{ name: 1, extra: true }] }), 'request/body/nodes/0 must NOT have additional properties, request/body/nodes/0/name must be string')
  t.equal(message({ ...ok, settings: { saveDataErrorExecution: 'some' } }), 'request/body/settings/saveDataErrorExecution must be equal to one of the allowed values: all, none')
  t.equal(message({ ...ok, staticData: '{"a":1}' }), '')
  t.equal(message({ ...ok, staticData: '{bad' }), 'request/body/staticData must match format "jsonString", request/body/staticData must be object,null, request/body/staticData must match a schema in anyOf')
  t.equal(message({ ...ok, pinData: 3 }), 'request/body/pinData must be object,null')
  t.equal(message({ ...ok, 'a/b': 1 }), 'request/body must NOT have additional properties')
  t.equal(validationMessage(validate(TAG_IDS_SCHEMA, [{ id: 'a' }, {}], '/body')), "request/body/1 must have required property 'id'")
})

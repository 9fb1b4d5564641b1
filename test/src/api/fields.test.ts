/** `POST /indexes/{uid}/fields` bodies (src/api/fields.ts): defaults, each field's code, unknown fields. */
import t, { type Test } from 'tap'
import { parseFieldsBody } from '../../../src/api/fields.js'
import { TesseraError } from '../../../engine/errors/index.js'

const fails = (t: Test, body: unknown, code: string, message?: string) => {
  try {
    parseFieldsBody(body)
    t.fail('accepted')
  } catch (err) {
    t.ok(err instanceof TesseraError)
    t.equal((err as TesseraError).code, code)
    if (message !== undefined) t.equal((err as TesseraError).message, message)
  }
}

t.test('defaults and values', async (t) => {
  t.same(parseFieldsBody({}), { offset: 0, limit: 20, filter: null })
  t.same(parseFieldsBody({ offset: 2, limit: 5, filter: { attributePatterns: ['a*'], displayed: false, rankingRule: true, filterable: null } }), {
    offset: 2, limit: 5, filter: { attributePatterns: ['a*'], displayed: false, rankingRule: true },
  })
})

t.test('errors', async (t) => {
  fails(t, [], 'bad_request', 'Invalid value type: expected an object, but found an array: `[]`')
  fails(t, { nope: 1 }, 'bad_request')
  fails(t, { limit: 1.5 }, 'invalid_index_limit')
  fails(t, { offset: -1 }, 'invalid_index_offset')
  fails(t, { filter: 'x' }, 'invalid_index_fields_filter', 'Invalid value type at `.filter`: expected an object, but found a string: `"x"`')
  fails(t, { filter: { sortable: 1 } }, 'invalid_index_fields_filter_sortable')
  fails(t, { filter: { searchable: 1 } }, 'invalid_index_fields_filter_searchable')
  fails(t, { filter: { distinct: 1 } }, 'invalid_index_fields_filter_distinct')
  fails(t, { filter: { filterable: 1 } }, 'invalid_index_fields_filter_filterable')
  fails(t, { filter: { rankingRule: 1 } }, 'invalid_index_fields_filter_ranking_rule')
  fails(t, { filter: { attributePatterns: [1] } }, 'invalid_index_fields_filter_attribute_patterns')
})

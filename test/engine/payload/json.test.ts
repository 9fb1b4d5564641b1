import t from 'tap'
import { parseJsonText } from '../../../engine/payload/json.js'

const message = (text: string) => {
  const r = parseJsonText(text)
  return r.ok ? null : r.message
}

t.test('valid and empty payloads', async (t) => {
  t.same(parseJsonText('{"a":[1,2]}'), { ok: true, value: { a: [1, 2] } })
  t.same(parseJsonText('  \n '), { ok: false, empty: true, message: '' })
})

t.test('syntax errors read like serde_json', async (t) => {
  t.equal(message('{"malormed": "payload"'), 'EOF while parsing an object at line 1 column 22')
  t.equal(message('{"uid": '), 'EOF while parsing a value at line 1 column 8')
  t.equal(message('[1, 2'), 'EOF while parsing a list at line 1 column 5')
  t.equal(message('{"a": "b'), 'EOF while parsing a string at line 1 column 8')
  t.equal(message('{"a": 1} x'), 'trailing characters at line 1 column 10')
  t.equal(message('{\n  "a" 1}'), 'expected `:` at line 2 column 7')
  t.equal(message('{1: 2}'), 'key must be a string at line 1 column 2')
  t.equal(message('[1 2]'), 'expected `,` or `]` at line 1 column 4')
})

t.test('nesting is limited as serde_json limits it', async (t) => {
  t.equal(parseJsonText('['.repeat(127) + ']'.repeat(127)).ok, true, '127 levels are fine')
  t.same(parseJsonText('['.repeat(128) + ']'.repeat(128)), { ok: false, empty: false, message: 'recursion limit exceeded at line 1 column 128' })
  t.same(parseJsonText(`{"filter": ${'['.repeat(100_000)}${']'.repeat(100_000)}}`), { ok: false, empty: false, message: 'recursion limit exceeded at line 1 column 138' })
  t.equal(parseJsonText('["' + '['.repeat(200) + '"]').ok, true, 'brackets inside strings do not count')
})

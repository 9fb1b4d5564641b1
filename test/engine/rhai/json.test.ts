/**
 * JSON ↔ Rhai as Meilisearch converts through serde: whole numbers within i64 are INT, others FLOAT, `null`
 * is `()`; back to JSON, keys come in Rhai's order and whole floats keep their `.0`.
 */
import t from 'tap'
import { fromJson, jsonText, toJson, debug, compileScript, runScript } from '../../../engine/rhai/index.js'

t.test('from JSON', async (t) => {
  t.equal(debug(fromJson({ a: 1, b: 1.5, c: 'x', d: null, e: [true, false], f: { g: -3 } })), '#{"a": 1, "b": 1.5, "c": "x", "d": (), "e": [true, false], "f": #{"g": -3}}')
  t.equal(debug(fromJson(1e20)), '1e20', 'an integer beyond i64 is a float')
  t.equal(debug(fromJson(2 ** 53)), '9007199254740992')
  t.equal(typeof fromJson(3), 'bigint')
  t.equal(typeof fromJson(3.25), 'number')
})

t.test('to JSON', async (t) => {
  const value = runScript(compileScript('#{z: 1, a: 2.0, m: [1.5, (), \'c\', "s", true], n: #{y: 1, b: 2}, f: 1.0 / 0.0, big: 9223372036854775807}')).value
  t.equal(jsonText(value), '{"a":2.0,"big":9223372036854775807,"f":null,"m":[1.5,null,"c","s",true],"n":{"b":2,"y":1},"z":1}')
  t.same(toJson(fromJson({ b: [1, { c: null }], a: 'x' })), { a: 'x', b: [1, { c: null }] })
})

t.test('round trip', async (t) => {
  const doc = { id: 7, title: 'Café ☕', tags: ['a', 'b'], nested: { deep: [1, 2.5, { x: null }] }, flag: false, price: 9.99, 'odd key': 'v' }
  t.same(toJson(fromJson(doc)), doc)
  const keys = Object.keys(JSON.parse(jsonText(fromJson({ b: 1, a: 2, B: 3, é: 4, _: 5 }))))
  t.same(keys, ['B', '_', 'a', 'b', 'é'], 'keys by code point, as a BTreeMap')
})

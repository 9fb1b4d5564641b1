/**
 * Runtime errors, word for word as Rhai displays them, with the position of the expression at fault; errors
 * inside script functions and closures name the call they happened in.
 */
import t from 'tap'
import { RhaiRuntimeError, compileScript, runScript } from '../../../engine/rhai/index.js'
import { failure } from '../../helpers/rhai.js'

const cases: [string, string][] = [
  ['foo(1, "a")', 'Function not found: foo (i64, &str | ImmutableString | String) (line 1, position 1)'],
  ['let x = 1; x.bar()', 'Function not found: bar (i64) (line 1, position 14)'],
  ['"abc".len(1)', 'Function not found: len (&str | ImmutableString | String, i64) (line 1, position 7)'],
  ['[1] - 1', 'Function not found: - (array, i64) (line 1, position 5)'],
  ['() + 1', 'Function not found: + ((), i64) (line 1, position 4)'],
  ['let d = #{}; d.n += 1', 'Function not found: + ((), i64) (line 1, position 18)'],
  ['-"a"', 'Function not found: - (&str | ImmutableString | String) (line 1, position 1)'],
  ['undefined_var + 1', 'Variable not found: undefined_var (line 1, position 1)'],
  ['x = 1', 'Variable not found: x (line 1, position 1)'],
  ['throw "boom"', 'Runtime error: boom (line 1, position 1)'],
  ['throw', 'Runtime error (line 1, position 1)'],
  ['throw #{code: 1}', 'Runtime error: #{"code": 1} (line 1, position 1)'],
  ['  throw 42;', 'Runtime error: 42 (line 1, position 3)'],
  ['1 / 0', 'Division by zero: 1 / 0 (line 1, position 3)'],
  ['1 % 0', 'Modulo division by zero or overflow: 1 % 0 (line 1, position 3)'],
  ['9223372036854775807 + 1', 'Addition overflow: 9223372036854775807 + 1 (line 1, position 21)'],
  ['-9223372036854775807 - 2', 'Subtraction overflow: -9223372036854775807 - 2 (line 1, position 22)'],
  ['4611686018427387904 * 2', 'Multiplication overflow: 4611686018427387904 * 2 (line 1, position 21)'],
  ['let m = -9223372036854775807 - 1; m / -1', 'Division overflow: -9223372036854775808 / -1 (line 1, position 37)'],
  ['let m = -9223372036854775807 - 1; -m', 'Negation overflow: --9223372036854775808 (line 1, position 35)'],
  ['2 ** 63', 'Exponential overflow: 2 ** 63 (line 1, position 3)'],
  ['2 ** -1', 'Integer raised to a negative power: 2 ** -1 (line 1, position 3)'],
  ['let d = #{n: 9223372036854775807}; d.n += 1', 'Addition overflow: 9223372036854775807 + 1 (line 1, position 40)'],
  ['parse_int("abc")', "Error parsing integer number 'abc': invalid digit found in string (line 1, position 1)"],
  ['parse_int("99999999999999999999")', "Error parsing integer number '99999999999999999999': number too large to fit in target type (line 1, position 1)"],
  ['parse_float("x")', "Error parsing floating-point number 'x': invalid float literal (line 1, position 1)"],
  ['1e300.to_int()', 'Integer overflow: to_int(1e300) (line 1, position 7)'],
  ['let a = [1, 2]; a[2]', 'Array index 2 out of bounds: only 2 elements in array (line 1, position 19)'],
  ['let a = []; a[0]', 'Array index 0 out of bounds: array is empty (line 1, position 15)'],
  ['let a = [1]; a[-2] = 0', 'Array index -2 out of bounds: only 1 element in array (line 1, position 16)'],
  ['"ab"[5]', 'String index 5 out of bounds: only 2 characters in string (line 1, position 6)'],
  ['let x = 1; x[64]', 'Bit-field index 64 out of bounds: only 64 bits in bit-field (line 1, position 14)'],
  ['let a = [1]; a["x"]', 'Data type incorrect: string (expecting i64) (line 1, position 16)'],
  ['let m = #{}; m[1]', 'Data type incorrect: i64 (expecting string) (line 1, position 16)'],
  ['let b = true; b[0]', 'Indexer unavailable: bool [i64] (line 1, position 17)'],
  ['let d = #{}; d.a.b', "Unknown property 'b' - a getter is not registered for type '()' (line 1, position 18)"],
  ['let s = "x"; s.foo', "Unknown property 'foo' - a getter is not registered for type 'string' (line 1, position 16)"],
  ['let d = #{}; d.a.b = 1', "No writable property 'b' - a setter is not registered for type '()' to handle 'i64' (line 1, position 18)"],
  ['if 1 + 1 { }', 'Data type incorrect: i64 (expecting bool) (line 1, position 6)'],
  ['let x = 1; x && true', 'Data type incorrect: i64 (expecting bool) (line 1, position 12)'],
  ['let m = #{}; for x in m {}', 'For loop expects iterable type (line 1, position 23)'],
  ['const c = [1]; c.push(2)', "Non-pure method 'push' cannot be called on constant (line 1, position 18)"],
  ['fn f() { this }; f()', "'this' not bound (line 1, position 10)\nin call to function 'f' (line 1, position 18)"],
  ['fn inner(x) { x / 0 }\nfn outer(x) { inner(x) }\nouter(1)',
    "Division by zero: 1 / 0 (line 1, position 17)\nin call to function 'inner' (line 2, position 15)\nin call to function 'outer' (line 3, position 1)"],
  ['let f = |x| x.nope(); f.call(1)', 'Function not found: nope (i64) (line 1, position 15)\nin closure call (line 1, position 25)'],
  ['[1, 2].map(|x| x / 0)', 'Division by zero: 1 / 0 (line 1, position 18)\nin closure call (line 1, position 8)'],
]

t.test('messages and positions', async (t) => {
  for (const [src, expected] of cases) t.equal(failure(src), expected, src)
})

t.test('constants given by the host cannot be modified', async (t) => {
  const context = { name: 'context', value: new Map([['a', 1n]]), constant: true }
  t.equal(failure('context.a = 2', [context]), 'Cannot modify constant context (line 1, position 1)')
  t.equal(failure('context = 2', [context]), 'Cannot modify constant context (line 1, position 1)')
  t.equal(failure('let x = context.a; x', [context]), 'no error', 'reading is fine')
})

t.test('errors are RhaiRuntimeError with the thrown value', async (t) => {
  try {
    runScript(compileScript('throw [1, "x"]'))
    t.fail('should throw')
  } catch (err) {
    t.ok(err instanceof RhaiRuntimeError)
    t.same((err as RhaiRuntimeError).thrown, [1n, 'x'])
    t.same((err as RhaiRuntimeError).position, { line: 1, pos: 1 })
  }
})

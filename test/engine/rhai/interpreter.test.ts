/**
 * The language, construct by construct: each script's value as Rhai's `debug` prints it. The expected values
 * are Rhai's (its book and its sources): i64 arithmetic, value semantics, blocks as expressions, loops with
 * break values, switch, functions without access to outer variables, closures that share captured variables.
 */
import t from 'tap'
import { show, failure } from '../../helpers/rhai.js'

const cases: [string, string][] = [
  // literals
  ['42', '42'], ['-7', '-7'], ['1.5', '1.5'], ['2.0', '2.0'], ['"hi"', '"hi"'], ["'c'", "'c'"], ['true', 'true'], ['()', '()'],
  ['[1, "a", 2.5, ()]', '[1, "a", 2.5, ()]'], ['#{b: 1, a: "x", "quoted key": []}', '#{"a": "x", "b": 1, "quoted key": []}'],
  ['[1, 2, 3,]', '[1, 2, 3]'],
  // variables and constants
  ['let x = 1; x = x + 1; x', '2'], ['let x; x', '()'], ['const C = 5; C * 2', '10'],
  ['let x = 1; { let x = 2; } x', '1'], ['let x = 1; let x = "shadow"; x', '"shadow"'],
  // compound assignment
  ['let x = 10; x += 5; x -= 3; x *= 2; x /= 4; x %= 4; x', '2'], ['let x = 2; x **= 10; x', '1024'],
  ['let x = 1; x <<= 4; x |= 1; x &= 0x11; x ^= 0x10; x >>= 0; x', '1'], ['let s = "a"; s += 1; s += \'b\'; s', '"a1b"'],
  ['let a = [1]; a += 2; a += [3, 4]; a', '[1, 2, 3, 4]'], ['let m = #{a: 1}; m += #{b: 2}; m', '#{"a": 1, "b": 2}'],
  // fields and indexes
  ['let d = #{a: #{b: 1}}; d.a.b = 2; d.a.c = [1, 2]; d.a.c[1] = 9; d', '#{"a": #{"b": 2, "c": [1, 9]}}'],
  ['let d = #{n: 1}; d.n += 1; d["n"] *= 10; d.n', '20'], ['let d = #{}; d.missing', '()'], ['let d = #{}; d["missing"]', '()'],
  ['let a = [1, 2, 3]; a[-1]', '3'], ['let a = [[1, 2], [3]]; a[0][1] = 5; a', '[[1, 5], [3]]'],
  ['let s = "héllo"; s[1]', "'é'"], ['let s = "abc"; s[-1] = \'z\'; s', '"abz"'], ['let x = 5; x[0]', 'true'],
  ['let x = 0; x[3] = true; x', '8'], ['let d = #{t: "  x "}; d.t.trim(); d.t', '"x"'], ['let d = #{a: [3, 1]}; d.a.sort(); d', '#{"a": [1, 3]}'],
  ['let a = ["  x"]; a[0].trim(); a', '["x"]'], ['let d = (); d?.a', '()'], ['let d = (); d?[0]', '()'], ['let d = #{a: ()}; d.a?.b', '()'],
  // value semantics
  ['let a = [1]; let b = a; b.push(2); [a, b]', '[[1], [1, 2]]'], ['let m = #{x: [1]}; let l = m.x; l.push(2); m', '#{"x": [1]}'],
  ['fn f(a) { a.push(9); a } let x = [1]; let y = f(x); [x, y]', '[[1], [1, 9]]'],
  ['let a = [1]; a.push(a); a', '[1, [1]]'],
  // operators and precedence
  ['1 + 2 * 3', '7'], ['(1 + 2) * 3', '9'], ['2 ** 3 ** 2', '512'], ['-2 ** 2', '4'], ['10 - 2 - 3', '5'], ['100 / 10 / 5', '2'],
  ['7 % 3', '1'], ['-7 % 3', '-1'], ['-7 / 2', '-3'], ['1 << 2 ** 2', '16'], ['1 + 1 << 2', '5'],
  ['1 < 2 == true', 'true'], ['(1 | 2) == 3', 'true'], ['true || false && false', 'true'], ['false && true || true', 'true'],
  ['5 & 3', '1'], ['5 | 3', '7'], ['5 ^ 3', '6'], ['true ^ true', 'false'], ['!true', 'false'], ['1 + 2.5', '3.5'], ['2.5 * 2', '5.0'],
  ['1 == 1.0', 'true'], ['1 < 1.5', 'true'], ['"a" < "b"', 'true'], ['"abc" == "abc"', 'true'], ['1 == "1"', 'false'], ['1 != "1"', 'true'],
  ['1 < "a"', 'false'], ['() == ()', 'true'], ["'a' + 'b'", '"ab"'], ['"a" + 1', '"a1"'], ['1 + "a"', '"1a"'], ['"x" + 1.0', '"x1.0"'],
  ['"a" + ()', '"a"'], ['"n: " + [1, "a"]', '"n: [1, \\"a\\"]"'], ['"banana" - "an"', '"ba"'], ['[1] + [2]', '[1, 2]'],
  ['#{a: 1} + #{a: 2, b: 3}', '#{"a": 2, "b": 3}'], ['[1, 2] == [1, 2]', 'true'], ['#{a: 1} != #{a: 1}', 'false'],
  ['() ?? 1', '1'], ['2 ?? 1', '2'], ['() ?? () ?? 3', '3'], ['1 + 1 ?? 5', '2'],
  ['2 in [1, 2]', 'true'], ['3 !in [1, 2]', 'true'], ['"el" in "hello"', 'true'], ["'h' in \"hello\"", 'true'], ['"a" in #{a: 1}', 'true'], ['3 in 1..5', 'true'],
  ['0.1 + 0.2', '0.30000000000000004'], ['1.0 / 0.0', 'inf'], ['9223372036854775807', '9223372036854775807'],
  // ranges and loops
  ['let s = 0; for i in 0..5 { s += i } s', '10'], ['let s = 0; for i in 0..=5 { s += i } s', '15'], ['let s = 0; for i in range(0, 10, 3) { s += i } s', '18'],
  ['let out = []; for (x, i) in ["a", "b"] { out.push(`${i}${x}`) } out', '["0a", "1b"]'],
  ['let out = []; for c in "ab" { out.push(c) } out', "['a', 'b']"],
  ['let i = 0; while i < 5 { i += 1; if i == 2 { continue; } if i == 4 { break; } } i', '4'],
  ['let i = 0; let v = loop { i += 1; if i == 3 { break i * 10; } }; v', '30'], ['let i = 0; do { i += 1 } while i < 3; i', '3'],
  ['let i = 0; do { i += 1 } until i >= 3; i', '3'], ['let x = for i in 0..3 { if i == 1 { break "found"; } }; x', '"found"'],
  ['let x = while false {}; x', '()'],
  // if and switch, statements and expressions
  ['if true { 1 } else { 2 }', '1'], ['let x = if false { 1 } else if true { 2 } else { 3 }; x', '2'], ['let x = if false { 1 }; x', '()'],
  ['let x = { let a = 1; a + 1 }; x', '2'],
  ['let f = |x| switch x { 1 | 2 => "low", 10 if x > 5 => "ten", 3..6 => "mid", _ => "other" }; [f.call(2), f.call(5), f.call(10), f.call(6)]', '["low", "mid", "ten", "other"]'],
  ['switch "a" { "a" => { let y = 1; y + 1 } "b" => 0 }', '2'], ['switch 1.0 { 1 => "int", 1.0 => "float" }', '"float"'], ['switch 9 { 1 => 1 }', '()'],
  ['let x = 0; switch 2 { 2 => x = 5, _ => x = 1 } x', '5'],
  // functions and closures
  ['fn add(a, b) { a + b } add(2, 3)', '5'], ['fn f() { return 7; 8 } f()', '7'], ['fn f(x) { if x > 0 { return "pos"; } "neg" } [f(1), f(-1)]', '["pos", "neg"]'],
  ['fn fib(n) { if n < 2 { n } else { fib(n - 1) + fib(n - 2) } } fib(15)', '610'], ['fn f(a) { a } fn f(a, b) { a + b } [f(1), f(1, 2)]', '[1, 3]'],
  ['fn set_a() { this.a = 1 } let m = #{}; m.set_a(); m', '#{"a": 1}'], ['fn double() { this * 2 } let x = 21; x.double()', '42'],
  ['let f = |x, y| x * y; f.call(6, 7)', '42'], ['let f = |x| x + 1; f(1)', '2'], ['let f = || 5; f.call()', '5'],
  ['let n = 1; let f = |x| x + n; n = 10; f.call(1)', '11'], ['let n = 1; let f = || n += 1; f.call(); f.call(); n', '3'],
  ['let add = |a, b| a + b; let inc = add.curry(1); inc.call(41)', '42'], ['fn twice(x) { x * 2 } [1, 2].map(twice)', '[2, 4]'],
  ['fn twice(x) { x * 2 } let f = Fn("twice"); f.call(4)', '8'], ['fn g(x) { x } call(Fn("g"), 3)', '3'],
  ['let m = #{v: 2, f: |x| this.v * x}; m.f(5)', '10'],
  ['let x = 5; let f = |y| { let x = 1; x + y }; f.call(1)', '2'],
  // strings
  ['`a ${1 + 1} b`', '"a 2 b"'], ['`${[1, 2]} ${#{a: 1.0}}`', '"[1, 2] #{\\"a\\": 1.0}"'], ['`multi\nline`', '"multi\\nline"'],
  ['`${ let x = 2; x * x }`', '"4"'], ['`nested ${`in ${1}`}`', '"nested in 1"'], ['`$${"x"}`', '"$x"'],
  // type checks and conversions
  ['[type_of(1), type_of(1.0), type_of("s"), type_of(\'c\'), type_of(true), type_of(()), type_of([]), type_of(#{}), type_of(|x| x), type_of(1..2), type_of(1..=2)]',
    '["i64", "f64", "string", "char", "bool", "()", "array", "map", "Fn", "range", "range="]'],
  ['[is_string("a"), is_int(1), is_float(1), is_array([]), is_map(#{}), is_unit(()), is_bool(1), is_char(\'x\')]', '[true, true, false, true, true, true, false, true]'],
  ['1.type_of()', '"i64"'], ['[1.9.to_int(), (-1.9).to_int(), 3.to_float(), \'A\'.to_int(), 65.to_char()]', "[1, -1, 3.0, 65, 'A']"],
  ['[parse_int("42"), parse_int(" -7 "), parse_int("ff", 16), parse_float("2.5"), "12".parse_int()]', '[42, -7, 255, 2.5, 12]'],
  ['[to_string(1.0), 2.to_string(), [1].to_string(), to_debug("a")]', '["1.0", "2", "[1]", "\\"a\\""]'],
  ['[1e15, 1e14, 1e-5, 123.456, -0.5]', '[1000000000000000.0, 100000000000000.0, 1e-5, 123.456, -0.5]'], ['`${1e13} ${1e14} ${0.00001}`', '"1e13 1e14 0.00001"'],
  ['[abs(-3), sign(-2.0), min(1, 2), max(1.5, 2), 7.is_odd, 2.5.floor, 2.5.round(), (-2.5).round(), 9.0.sqrt()]', '[3, -1, 1, 2.0, true, 2.0, 3.0, -3.0, 3.0]'],
  // print and debug are no-ops returning ()
  ['print("x")', '()'], ['debug(1)', '()'],
  // return at top level ends the script
  ['let x = 1; return x + 1; x = 99', '2'],
  // try / catch
  ['try { throw "bad" } catch (e) { `caught ${e}` }', '"caught bad"'], ['try { 1 / 0 } catch { "x" }', '"x"'],
  ['try { throw #{code: 1} } catch (e) { e.code }', '1'],
]

t.test('constructs evaluate as in Rhai', async (t) => {
  for (const [src, expected] of cases) {
    let got: string
    try {
      got = show(src)
    } catch (err) {
      got = `error: ${(err as Error).message}`
    }
    t.equal(got, expected, src)
  }
})

t.test('functions do not see outer variables', async (t) => {
  t.equal(failure('let x = 1; fn f() { x } f()'), "Variable not found: x (line 1, position 21)\nin call to function 'f' (line 1, position 25)")
})

t.test('print and debug reach the printer', async (t) => {
  const { compileScript, runScript } = await import('../../../engine/rhai/index.js')
  const lines: string[] = []
  runScript(compileScript('print("a"); print(1.0); debug("b"); debug([1])'), [], { print: (s) => lines.push(s) })
  t.same(lines, ['a', '1.0', '"b"', '[1]'])
})

/**
 * Every run is bounded: operations, call depth, variables, and the sizes of strings, arrays and maps stop a
 * script with Rhai's errors instead of letting it hang or exhaust memory.
 */
import t from 'tap'
import { DEFAULT_LIMITS, MEILISEARCH_LIMITS } from '../../../engine/rhai/index.js'
import { failure, show } from '../../helpers/rhai.js'

t.test('operations', async (t) => {
  const started = Date.now()
  t.equal(failure('loop {}'), 'Too many operations (line 1, position 6)')
  t.match(failure('while true { let x = 1; }'), /^Too many operations/)
  t.match(failure('let i = 0; while i >= 0 { i += 1 }'), /^Too many operations/)
  t.match(failure('fn spin() { loop {} } spin()'), /^Too many operations \(line 1, position 23\)$/, 'a limit error takes the outermost call position, unwrapped')
  t.match(failure('[1, 2, 3].map(|x| { loop {} })'), /^Too many operations/)
  t.ok(Date.now() - started < 20_000, 'each stops within seconds')
  const small = { ...DEFAULT_LIMITS, maxOperations: 50 }
  t.equal(show('let s = 0; for i in 0..5 { s += i } s', [], small), '10')
  t.match(failure('let s = 0; for i in 0..100 { s += i } s', [], small), /^Too many operations/)
  t.equal(MEILISEARCH_LIMITS.maxOperations, 1_000_000)
})

t.test('work that grows with data is bounded too', async (t) => {
  const started = Date.now()
  const tight = { ...DEFAULT_LIMITS, maxWork: 5_000_000 }
  t.match(failure('let s = "x"; s.pad(1000000, \'y\'); loop { s.index_of("z"); }', [], tight), /^Too many operations/)
  t.ok(Date.now() - started < 20_000)
})

t.test('call depth', async (t) => {
  t.equal(failure('fn r(n) { r(n + 1) } r(0)'), 'Stack overflow (line 1, position 22)')
  t.equal(show('fn down(n) { if n == 0 { 0 } else { 1 + down(n - 1) } } down(400)'), '400', 'deep but bounded recursion works')
  t.equal(failure('fn down(n) { if n == 0 { 0 } else { 1 + down(n - 1) } } down(20)', [], { ...DEFAULT_LIMITS, maxCallLevels: 10 }), 'Stack overflow (line 1, position 57)')
  t.equal(failure('fn down(n) { if n == 0 { 0 } else { 1 + down(n - 1) } } down(5000)'), 'Stack overflow (line 1, position 57)', 'the JavaScript stack running out is the same error')
  t.match(failure('let f = |g| g.call(g); f.call(f)'), /^Stack overflow/)
})

t.test('variables', async (t) => {
  const few = { ...DEFAULT_LIMITS, maxVariables: 3 }
  t.equal(show('let a = 1; let b = 2; let c = 3; a + b + c', [], few), '6')
  t.equal(failure('let a = 1; let b = 2; let c = 3; let d = 4;', [], few), 'Too many variables defined (line 1, position 34)')
})

t.test('string size', async (t) => {
  t.equal(failure('let s = "x"; loop { s += s }'), 'Length of string too large (line 1, position 23)')
  t.equal(failure("let s = \"\"; s.pad(17000000, 'x')"), 'Length of string too large (line 1, position 15)')
  const small = { ...DEFAULT_LIMITS, maxStringSize: 10 }
  t.equal(show('"abcde" + "fghij"', [], small), '"abcdefghij"')
  t.equal(failure('"abcde" + "fghijk"', [], small), 'Length of string too large (line 1, position 9)')
  t.equal(failure('let x = 5; `${x}${"0123456789"}`', [], small), 'Length of string too large (line 1, position 12)')
  t.match(failure('let a = []; for i in 0..5 { a.push("0123") }', [], small), /^Length of string too large/, 'strings inside arrays count')
})

t.test('array and map sizes, nested values included', async (t) => {
  t.match(failure('let a = []; loop { a.push(1) }'), /^Size of array\/BLOB too large/)
  t.equal(failure('let a = []; a.pad(10001, 0)'), 'Size of array/BLOB too large (line 1, position 15)')
  const small = { ...DEFAULT_LIMITS, maxArraySize: 5, maxMapSize: 3 }
  t.equal(show('[1, 2, 3, 4, 5].len', [], small), '5')
  t.match(failure('[[1, 2, 3], [4, 5, 6]]', [], small), /^Size of array\/BLOB too large/)
  t.match(failure('let a = [1, 2, 3]; let b = a + a', [], small), /^Size of array\/BLOB too large/)
  t.match(failure('let m = #{}; m.a = 1; m.b = 2; m.c = 3; m.d = 4', [], small), /^Size of object map too large/)
  t.match(failure('let m = #{a: #{x: 1, y: 2}, b: 1}', [], small), /^Size of object map too large/)
  t.match(failure('let big = [1, 2, 3]; let outer = []; outer.push(big); outer.push(big)', [], small), /^Size of array\/BLOB too large/)
})

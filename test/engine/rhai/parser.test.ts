/**
 * The parser: Rhai's syntax errors word for word with their positions, the shape of what it accepts, and its
 * parse-time limits (expression depth, number of functions, literal sizes) for the route and the task.
 */
import t from 'tap'
import { RhaiSyntaxError, ROUTE_COMPILE_LIMITS, TASK_COMPILE_LIMITS, compileScript } from '../../../engine/rhai/index.js'
import { parseProgram } from '../../../engine/rhai/parser.js'

function syntaxError(src: string, limits = ROUTE_COMPILE_LIMITS): string {
  try {
    compileScript(src, limits)
    return 'compiles'
  } catch (err) {
    t.ok(err instanceof RhaiSyntaxError, `${src}: a RhaiSyntaxError`)
    return (err as Error).message
  }
}

const errors: [string, string][] = [
  ['malformed rhai script', "Expecting ';' to terminate this statement (line 1, position 11)"],
  ['let x = ', 'Script is incomplete (line 1, position 9)'],
  ['let x = 1\nlet y = 2', "Expecting ';' to terminate this statement (line 2, position 1)"],
  ['doc.title = ', 'Script is incomplete (line 1, position 13)'],
  ['let = 5;', 'Expecting name of a variable (line 1, position 5)'],
  ['let print = 1;', "'print' is a reserved keyword (line 1, position 5)"],
  ['let x = );', "Unexpected ')' (line 1, position 9)"],
  ['foo(1, 2', "Expecting ')' to close the arguments list of this function call 'foo' (line 1, position 9)"],
  ['foo(1 2)', "Expecting ',' to separate the arguments to function call 'foo' (line 1, position 7)"],
  ['[1, 2', "Expecting ']' to end this array literal (line 1, position 6)"],
  ['[1 2]', "Expecting ',' to separate the items of this array literal (line 1, position 4)"],
  ['#{a: 1', "Expecting '}' to end this object map literal (line 1, position 7)"],
  ['#{a 1}', "Expecting ':' to follow the property 'a' in this object map literal (line 1, position 5)"],
  ['#{a: 1, a: 2}', 'Duplicated property for object map literal: a (line 1, position 9)'],
  ['#{a: 1 b: 2}', "Expecting ',' to separate the items of this object map literal (line 1, position 8)"],
  ['(1 + 2', "Expecting ')' for a matching ( in this expression (line 1, position 7)"],
  ['x[1', "Expecting ']' for a matching [ in this index expression (line 1, position 4)"],
  ['if x { 1 ', "Expecting ';' to terminate this statement (line 1, position 10)"],
  ['if x { ', "Expecting '}' to terminate this block (line 1, position 8)"],
  ['if x 1', "Expecting '{' to start a statement block (line 1, position 6)"],
  ['if x = 1 { }', "Possibly a typo of '=='? (line 1, position 6)"],
  ['if 1 { }', 'Expecting a boolean expression, not a number (line 1, position 4)'],
  ['if "s" { }', 'Expecting a boolean expression, not a string (line 1, position 4)'],
  ['while () {}', 'Expecting a boolean expression, not () (line 1, position 7)'],
  ['for x in 42 {}', 'Expecting an iterable value, not a number (line 1, position 10)'],
  ['for x [1] {}', "Expecting 'in' after the iteration variable (line 1, position 7)"],
  ['for (x) in [] {}', "Expecting ',' after the iteration variable name (line 1, position 7)"],
  ['for (x, x) in [] {}', 'Duplicated variable name: x (line 1, position 9)'],
  ['do { } x', "Expecting 'while' for the do statement (line 1, position 8)"],
  ['break;', 'Break statement should only be used inside a loop (line 1, position 1)'],
  ['fn f() { continue; }', 'Break statement should only be used inside a loop (line 1, position 10)'],
  ['{ fn f() {} }', 'Function definitions must be at global level and cannot be inside a block or another function (line 1, position 3)'],
  ['fn () {}', 'Expecting function name in function declaration (line 1, position 4)'],
  ['fn f {}', 'Expecting parameters for function f (line 1, position 6)'],
  ['fn f(a, a) {}', 'Duplicated parameter a for function f (line 1, position 9)'],
  ['fn f(a) 1', 'Expecting body statement block for function f (line 1, position 9)'],
  ['fn f(a) {} fn f(b) {}', 'Function f with 1 parameter already exists (line 1, position 12)'],
  ['fn f(a b) {}', "Expecting ',' to separate the parameters of function 'f' (line 1, position 8)"],
  ['const X = 1; X = 2;', 'Cannot assign to constant X (line 1, position 14)'],
  ['1 = 2;', 'Cannot assign to a constant value (line 1, position 1)'],
  ['a + b = 2;', 'Expression cannot be assigned to (line 1, position 3)'],
  ['x.f() = 1;', 'Expression cannot be assigned to (line 1, position 3)'],
  ['a && b = true;', "Possibly a typo of '=='? (line 1, position 3)"],
  ['switch x { 1 => 2 3 => 4 }', "Expecting ',' to separate the items in this switch block (line 1, position 19)"],
  ['switch x { _ => 1, 2 => 3 }', 'Default switch case must be the last (line 1, position 12)'],
  ['switch x { _ if true => 1 }', 'This switch case cannot have a condition (line 1, position 14)'],
  ['switch x { 1..3 => 1, 5 => 2 }', 'Numeric switch case cannot follow a range case (line 1, position 23)'],
  ['switch x { y => 1 }', 'Expecting a literal expression (line 1, position 12)'],
  ['switch x { 1 2 }', "Expecting '=>' in this switch case (line 1, position 14)"],
  ['switch x 1', "Expecting '{' to start a switch block (line 1, position 10)"],
  ['x ++ 1', "Unknown operator: '++' (line 1, position 3)"],
  ['let x = this;', "'this' can only be used in functions (line 1, position 9)"],
  ['x.', 'Expecting name of a property (line 1, position 3)'],
  ['x.if', 'Expecting name of a property (line 1, position 3)'],
  ['x.print', "'print' is a reserved keyword (line 1, position 3)"],
  ['#{a: 1}[0]', 'Object map expects string index, not a number (line 1, position 9)'],
  ['[1, 2]["a"]', 'Array, string or bit-field expects numeric index, not a string (line 1, position 8)'],
  ['|a, a| a', 'Duplicated parameter a for function  (line 1, position 5)'],
  ['try { } x', "Expecting 'catch' for the 'try' statement (line 1, position 9)"],
  ['import "x" as y;', "'import' is a reserved keyword (line 1, position 1)"],
  ['let s = `abc ${ 1 + }`;', "Unexpected '}' (line 1, position 21)"],
  ['let s = `abc ${ 1 ', "Expecting ';' to terminate this statement (line 1, position 19)"],
  ['let s = `abc ${', "Expecting '}' to terminate this block (line 1, position 16)"],
  ['', 'compiles'], ['// only a comment', 'compiles'], [';;;', 'compiles'],
]

t.test("syntax errors carry Rhai's messages and positions", async (t) => {
  for (const [src, expected] of errors) t.equal(syntaxError(src), expected, JSON.stringify(src))
})

t.test('what compiles', async (t) => {
  const ok = [
    'doc.title = doc.title.to_upper(); doc.views += 1',
    'if doc.id % 3 != 0 { doc = (); } else { doc.title = "kefir"; }',
    'doc.title = `✨ ${doc.title.to_upper()} ✨`',
    'let x = [1, 2,]; let y = #{a: 1,}; fn f(a,) { a } f(1,)',
    'fn f() { 1 } private fn g() { 2 }',
    'let a = 1..; let b = ..5;',
    'loop { if true { break } }',
    'x?.y?[0].z(1)',
    'let m = #{"with space": 1, if_: 2}',
  ]
  for (const src of ok) t.equal(syntaxError(src), 'compiles', src)
})

t.test('the tree follows Rhai precedence and associativity', async (t) => {
  const tree = (src: string): string => {
    const stmt = parseProgram(src).statements[0]!
    const show = (e: any): string => {
      switch (e.k) {
        case 'binary': return `(${show(e.lhs)} ${e.op} ${show(e.rhs)})`
        case 'logic': return `(${e.items.map(show).join(` ${e.op} `)})`
        case 'unary': return `(${e.op}${show(e.arg)})`
        case 'in': return `(${show(e.item)} ${e.negated ? '!in' : 'in'} ${show(e.container)})`
        case 'int': return String(e.value)
        case 'var': return e.name
        default: return e.k
      }
    }
    return stmt.k === 'expr' ? show(stmt.expr) : stmt.k
  }
  t.equal(tree('a || b && c'), '(a || (b && c))')
  t.equal(tree('a | b ^ c'), '((a | b) ^ c)', '| and ^ share a level')
  t.equal(tree('a == b < c'), '(a == (b < c))')
  t.equal(tree('a in b == c'), '((a in b) == c)')
  t.equal(tree('a ?? b + c'), '(a ?? (b + c))')
  t.equal(tree('a < b ?? c'), '(a < (b ?? c))')
  t.equal(tree('a .. b + c'), '(a .. (b + c))')
  t.equal(tree('a + b * c'), '(a + (b * c))')
  t.equal(tree('a * b ** c'), '(a * (b ** c))')
  t.equal(tree('a ** b ** c'), '(a ** (b ** c))', '** binds to the right')
  t.equal(tree('a ** b << c'), '(a ** (b << c))', 'shifts bind tighter than **')
  t.equal(tree('a - b - c'), '((a - b) - c)')
  t.equal(tree('-a.b'), '(-chain)')
  t.equal(tree('!a && b'), '((!a) && b)')
  t.equal(tree('-5'), '-5')
})

t.test('expression depth limits', async (t) => {
  const nested = (n: number) => '('.repeat(n) + '1' + ')'.repeat(n)
  t.equal(syntaxError(nested(20)), 'compiles')
  t.match(syntaxError(nested(40)), /^Expression exceeds maximum complexity \(line 1, position \d+\)$/)
  t.equal(syntaxError(nested(40), TASK_COMPILE_LIMITS), 'compiles', 'the task engine allows depth 100')
  t.match(syntaxError(nested(100000)), /^Expression exceeds maximum complexity/, 'no stack overflow on absurd nesting')
  const longSum = Array.from({ length: 80 }, () => 'x').join(' + ')
  t.match(syntaxError(longSum), /^Expression exceeds maximum complexity/, 'Rhai counts a level per operator in a chain')
  t.match(syntaxError(`fn f() { ${nested(20)} }`), /^Expression exceeds maximum complexity/, 'functions have a lower limit (32)')
})

t.test("the task engine's limits on functions and literals", async (t) => {
  const fns = Array.from({ length: 31 }, (_, i) => `fn f${i}() {}`).join('\n')
  t.equal(syntaxError(fns), 'compiles', 'the route has no function limit')
  t.equal(syntaxError(fns, TASK_COMPILE_LIMITS), 'Number of functions defined exceeds maximum limit (line 31, position 1)')
  const closures = Array.from({ length: 31 }, () => 'let f = |x| x;').join('\n')
  t.match(syntaxError(closures, TASK_COMPILE_LIMITS), /^Number of functions defined exceeds maximum limit/, 'closures count as functions')
  const limits = { ...TASK_COMPILE_LIMITS, maxArrayLiteral: 3, maxMapLiteral: 2 }
  t.equal(syntaxError('[1, 2, 3, 4]', limits), 'Size of array literal exceeds the maximum limit (3) (line 1, position 11)')
  t.equal(syntaxError('#{a: 1, b: 2, c: 3}', limits), 'Number of properties in object map literal exceeds the maximum limit (2) (line 1, position 18)')
})

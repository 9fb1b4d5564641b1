/**
 * Fuzzing the compiler: random token soups, random bytes and mutations of valid scripts (seeded, bounded in
 * count and time). Compiling must answer a program or a `RhaiSyntaxError` — never another exception, never a
 * hang. Programs that compile are also run under small limits: they must end with a value or a Rhai error.
 */
import t, { type Test } from 'tap'
import { DEFAULT_LIMITS, RhaiRuntimeError, RhaiSyntaxError, compileScript, runScript } from '../../../engine/rhai/index.js'
import { TesseraError } from '../../../engine/errors/index.js'
import { seededRandom } from '../../helpers/random.js'

const SEEDS = [
  'doc.title = doc.title.to_upper(); doc.views += 1',
  'if doc.id % 3 != 0 { doc = (); } else { doc.title = "kefir"; }',
  'let x = [1, 2, 3].map(|v| v * 2).filter(|v| v > 2); doc.x = x;',
  'fn f(a, b) { if a > b { a } else { b } } doc.m = f(doc.a ?? 0, 5);',
  'switch doc.kind { "a" | "b" => doc.k = 1, 1..10 => doc.k = 2, _ if doc.x => { doc.k = 3 } }',
  'for (tag, i) in doc.tags { doc.out += `${i}:${tag.sub_string(0, 2)}`; } while false {} do { break; } until true;',
  'let m = #{a: 1, "b c": [1.5, \'x\', ()]}; m.a += 1; doc.m = m; loop { break 1; }',
  'try { throw #{e: 1} } catch (err) { doc.e = err.e } const C = 0x1F; doc.c = C ** 2 << 1 >> 1 & 0b11 | 0o7 ^ 1;',
]

const TOKENS = [
  'let', 'const', 'if', 'else', 'while', 'loop', 'for', 'in', 'do', 'until', 'fn', 'return', 'break', 'continue', 'switch',
  'throw', 'try', 'catch', 'private', 'this', 'print', 'doc', 'x', 'y', 'f', '_', '(', ')', '{', '}', '[', ']', '#{', ',', ';', ':',
  '.', '?.', '?[', '..', '..=', '=>', '=', '==', '!=', '+', '-', '*', '/', '%', '**', '<<', '>>', '&', '|', '^', '&&', '||', '!',
  '??', '<', '>', '<=', '>=', '+=', '|x|', '1', '-1', '1.5', '1e9', '0xZ', '"s"', '"unterminated', "'c'", "''", '`t ${', '`', '}',
  '//c\n', '/*', '*/', '\n', ' ', '\t', 'é', '\\', '@', '$', '#', '===', '->', '9223372036854775808',
]

function check(t: Test, source: string): void {
  let program
  try {
    program = compileScript(source)
  } catch (err) {
    if (!(err instanceof RhaiSyntaxError)) t.fail(`compile threw ${(err as Error)?.constructor?.name}: ${(err as Error)?.message} for ${JSON.stringify(source)}`)
    return
  }
  try {
    runScript(program, [{ name: 'doc', value: new Map() }], { limits: { ...DEFAULT_LIMITS, maxOperations: 2000, maxWork: 200_000 } })
  } catch (err) {
    if (!(err instanceof RhaiRuntimeError) && !(err instanceof TesseraError)) t.fail(`run threw ${(err as Error)?.constructor?.name}: ${(err as Error)?.message} for ${JSON.stringify(source)}`)
  }
}

t.test('random token soups, random characters and mutated scripts', async (t) => {
  const random = seededRandom(20261124)
  const started = Date.now()
  let count = 0
  const pick = <T>(xs: T[]) => xs[random.int(xs.length)]!
  while (count < 30_000 && Date.now() - started < 6_000) {
    const kind = count % 3
    let source: string
    if (kind === 0) {
      source = Array.from({ length: 1 + random.int(25) }, () => pick(TOKENS)).join(random.int(2) ? ' ' : '')
    } else if (kind === 1) {
      source = Array.from({ length: random.int(40) }, () => String.fromCharCode(random.int(3) ? 32 + random.int(95) : random.int(0x3000))).join('')
    } else {
      const chars = [...pick(SEEDS)]
      for (let m = 1 + random.int(4); m > 0; m--) {
        const at = random.int(chars.length + 1)
        const op = random.int(3)
        if (op === 0) chars.splice(at, 1)
        else if (op === 1) chars.splice(at, 0, pick(TOKENS))
        else chars.splice(at, random.int(5), ...pick(SEEDS).slice(0, random.int(10)))
      }
      source = chars.join('')
    }
    check(t, source)
    count++
  }
  t.ok(count >= 1000, `${count} inputs in ${Date.now() - started} ms`)
  t.comment(`${count} inputs in ${Date.now() - started} ms`)
})

t.test('pathological inputs compile or fail quickly', async (t) => {
  const started = Date.now()
  for (const source of ['('.repeat(50_000), '['.repeat(50_000), '{'.repeat(50_000), '-'.repeat(50_000) + '1', '!'.repeat(50_000) + 'x',
    'x' + '.a'.repeat(20_000), 'x' + '[0]'.repeat(20_000), '`${'.repeat(5_000), '"' + 'a'.repeat(1_000_000) + '"', 'f(' + '1,'.repeat(20_000) + ')',
    '/*'.repeat(10_000), 'let a = 1;'.repeat(5_000), 'if x {} else '.repeat(10_000) + '{}']) {
    check(t, source)
  }
  t.ok(Date.now() - started < 20_000, `took ${Date.now() - started} ms`)
})

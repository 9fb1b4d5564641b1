/**
 * The tokenizer: token kinds, Rhai's positions (line, character on the line), numbers in every form, strings
 * and characters with their escapes, back-tick text, comments, reserved words and symbols, lexical errors.
 */
import t from 'tap'
import { Lexer, type Token } from '../../../engine/rhai/lexer.js'
import { RhaiSyntaxError } from '../../../engine/rhai/errors.js'

function tokens(src: string): Token[] {
  const lexer = new Lexer(src)
  const out: Token[] = []
  for (;;) {
    const token = lexer.next()
    out.push(token)
    if (token.kind === 'eof') return out
  }
}

const kinds = (src: string) => tokens(src).map((tk) => tk.kind)
const lexError = (src: string) => {
  try {
    tokens(src)
    return 'no error'
  } catch (err) {
    t.ok(err instanceof RhaiSyntaxError)
    return (err as Error).message
  }
}

t.test('symbols and keywords', async (t) => {
  t.same(kinds('let x = a.b[0] += 1;'), ['let', 'ident', '=', 'ident', '.', 'ident', '[', 'int', ']', '+=', 'int', ';', 'eof'])
  t.same(kinds('a ?? b ?. c ?[ d ]'), ['ident', '??', 'ident', '?.', 'ident', '?[', 'ident', ']', 'eof'])
  t.same(kinds('#{ } () .. ..= ** **= << >>= !in !inx'), ['#{', '}', '()', '..', '..=', '**', '**=', '<<', '>>=', '!in', '!', 'ident', 'eof'])
  t.same(kinds('fn private switch do until loop _ x'), ['fn', 'private', 'switch', 'do', 'until', 'loop', '_', 'ident', 'eof'])
  t.same(tokens('print import this').map((tk) => [tk.kind, tk.text]), [['reserved', 'print'], ['reserved', 'import'], ['reserved', 'this'], ['eof', '{EOF}']])
})

t.test('positions count characters per line, from 1', async (t) => {
  t.equal(lexError('let é = 1;'), "Unexpected 'é' (line 1, position 5)")
  const second = tokens('let a = 1;\n  x\t+ 2')
  t.same(second.slice(5).map((tk) => [tk.kind, tk.line, tk.pos]), [['ident', 2, 3], ['+', 2, 5], ['int', 2, 7], ['eof', 2, 8]])
  t.same(tokens('"😀" + x').map((tk) => tk.pos), [1, 5, 7, 8], 'an astral character is one position')
})

t.test('numbers', async (t) => {
  const value = (src: string) => {
    const [tk] = tokens(src)
    return tk!.kind === 'int' ? `int ${tk!.int}` : tk!.kind === 'float' ? `float ${tk!.float}` : tk!.kind
  }
  t.equal(value('42'), 'int 42')
  t.equal(value('1_000_000'), 'int 1000000')
  t.equal(value('0xff'), 'int 255')
  t.equal(value('0o17'), 'int 15')
  t.equal(value('0b1010'), 'int 10')
  t.equal(value('0xFFFFFFFFFFFFFFFF'), 'int -1', 'radix literals wrap into i64')
  t.equal(value('1.5'), 'float 1.5')
  t.equal(value('1e3'), 'float 1000')
  t.equal(value('2.5e-3'), 'float 0.0025')
  t.equal(value('9223372036854775807'), 'int 9223372036854775807')
  t.equal(value('9223372036854775808'), 'float 9223372036854776000', 'an integer too large for i64 is a float')
  t.equal(value('-9223372036854775808'), 'int -9223372036854775808', 'a leading minus joins the literal')
  t.same(kinds('x -1'), ['ident', '-', 'int', 'eof'], 'after an operand, minus is an operator')
  t.same(kinds('1..2'), ['int', '..', 'int', 'eof'])
  t.same(kinds('1.max'), ['int', '.', 'ident', 'eof'])
  t.equal(lexError('0x'), "Invalid number: '' (line 1, position 1)")
  t.equal(lexError('0x1FFFFFFFFFFFFFFFF'), "Invalid number: '1FFFFFFFFFFFFFFFF' (line 1, position 1)")
})

t.test('strings and characters', async (t) => {
  const text = (src: string) => tokens(src)[0]!.text
  t.equal(text('"a\\tb\\n\\\\\\"c"'), 'a\tb\n\\"c')
  t.equal(text('"\\x41\\u00e9\\U0001F600"'), 'Aé😀')
  t.equal(text('"say ""hi"""'), 'say "hi"', 'a doubled quote is a quote')
  t.equal(text('"one \\\n two"'), 'one two', 'a backslash at the end of a line continues the string')
  t.equal(text('"one \\\n   two"'), 'one   two', 'indentation past the opening quote is kept')
  t.equal(text("'x'"), 'x')
  t.equal(tokens("'\\n'")[0]!.kind, 'char')
  t.equal(lexError('"abc'), 'Open string is not terminated (line 1, position 1)')
  t.equal(lexError('x = "ab\ncd"'), 'Open string is not terminated (line 1, position 5)')
  t.equal(lexError('"\\q"'), "Invalid escape sequence: '\\q' (line 1, position 3)")
  t.equal(lexError('"\\xZZ"'), "Invalid escape sequence: '\\xZ' (line 1, position 4)")
  t.equal(lexError("''"), "Invalid character: '' (line 1, position 1)")
  t.equal(lexError("'ab'"), "Invalid character: 'ab' (line 1, position 1)")
})

t.test('back-tick strings stop at ${ and resume on request', async (t) => {
  const lexer = new Lexer('`a ${x} b`')
  const first = lexer.next()
  t.same([first.kind, first.text], ['interp', 'a '])
  t.same([lexer.next().kind, lexer.next().text, lexer.next().kind], ['{', 'x', '}'])
  lexer.resumeText()
  const rest = lexer.next()
  t.same([rest.kind, rest.text], ['str', ' b'])
  t.equal(tokens('`\nline1\nline2`')[0]!.text, 'line1\nline2', 'a new line right after the back-tick is skipped')
  t.equal(tokens('`no \\n escapes`')[0]!.text, 'no \\n escapes')
  t.equal(lexError('`open'), 'Open string is not terminated (line 1, position 1)')
})

t.test('comments', async (t) => {
  t.same(kinds('a // line\nb /* block /* nested */ still */ c'), ['ident', 'ident', 'ident', 'eof'])
  t.same(kinds('a /* never closed'), ['ident', 'eof'])
})

t.test('identifiers and improper symbols', async (t) => {
  t.equal(lexError('_1'), "Variable name is not proper: '_1' (line 1, position 1)")
  t.same(kinds('_x'), ['ident', 'eof'])
  t.equal(lexError('a === b'), "'===' is not a valid operator. This is not JavaScript! Should it be '=='? (line 1, position 3)")
  t.equal(lexError('a -> b'), "'->' is not a valid symbol. This is not C or C++! (line 1, position 3)")
  t.equal(lexError('a := b'), "':=' is not a valid assignment operator. This is not Go or Pascal! Should it be simply '='? (line 1, position 3)")
  t.equal(lexError('# {'), "'#' is not a valid symbol. Should it be '#{'? (line 1, position 1)")
  t.equal(lexError('a \\ b'), "Unexpected '\\' (line 1, position 3)")
  t.same(tokens('a ++ b').map((tk) => tk.kind), ['ident', 'reserved', 'ident', 'eof'])
})

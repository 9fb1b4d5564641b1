/**
 * The Rhai tokenizer: one token at a time, pulled by the parser, with Rhai's positions (line, 1-based count of
 * Unicode characters on the line) and Rhai's lexical rules (number forms, `-1` folded into the literal where a
 * unary minus may stand, `""` inside a string, line continuations, back-tick strings with `${...}` interpolation
 * resumed on the parser's request, reserved words and symbols). A lexical error is thrown when the token that
 * holds it is read, which is when Rhai's parser would report it.
 */
import { RhaiSyntaxError, syntax, type Position } from './errors.js'
import { BEFORE_UNARY, IMPROPER_SYMBOLS, KEYWORDS, RESERVED_SYMBOLS, RESERVED_WORDS, SYMBOLS1, SYMBOLS2, SYMBOLS3 } from './tokens.js'

export { CALLABLE_RESERVED, METHOD_RESERVED, isKeyword, isReservedWord } from './tokens.js'

export type TokenKind = 'int' | 'float' | 'str' | 'interp' | 'char' | 'ident' | 'reserved' | 'eof' | string

export interface Token {
  /** `int`, `float`, `str` (literal or last piece of a back-tick string), `interp` (piece before `${`), `char`,
   * `ident`, `reserved`, `eof`, or the text of a keyword or symbol (`let`, `+=`, `#{`, ...). */
  kind: TokenKind
  text: string
  int: bigint
  float: number
  line: number
  pos: number
}

const isDigit = (c: number) => c >= 48 && c <= 57
const isAlpha = (c: number) => (c >= 65 && c <= 90) || (c >= 97 && c <= 122)
const isIdContinue = (c: number) => isAlpha(c) || isDigit(c) || c === 95
const isHex = (c: number) => isDigit(c) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102)
const isSpace = (c: number) => c === 32 || c === 9 || c === 10 || c === 13 || c === 12

export class Lexer {
  private i = 0
  private line = 1
  private col = 0
  private unaryAllowed = true
  /** Set by the parser after the `}` of an interpolation: the next token continues the back-tick string. */
  private inText = false

  constructor(private readonly src: string) {}

  /** Continue the enclosing back-tick string on the next read (after `${ ... }`). */
  resumeText(): void {
    this.inText = true
  }

  next(): Token {
    const token = this.inText ? this.continueText() : this.scan()
    this.unaryAllowed = BEFORE_UNARY.has(token.kind)
    return token
  }

  private fail(description: string, line: number, pos: number): never {
    throw new RhaiSyntaxError(description, { line, pos })
  }

  private token(kind: string, text: string, line: number, pos: number): Token {
    return { kind, text, int: 0n, float: 0, line, pos }
  }

  /** The code unit length of the character at `i` (2 for a surrogate pair). */
  private width(i: number): number {
    const c = this.src.charCodeAt(i)
    return c >= 0xd800 && c <= 0xdbff && i + 1 < this.src.length ? 2 : 1
  }

  /** Consume one character, moving the position as Rhai does. */
  private advance(): string {
    const w = this.width(this.i)
    const ch = this.src.slice(this.i, this.i + w)
    this.i += w
    if (ch === '\n') {
      this.line++
      this.col = 0
    } else {
      this.col++
    }
    return ch
  }

  private code(offset = 0): number {
    const j = this.i + offset
    return j < this.src.length ? this.src.charCodeAt(j) : -1
  }

  private scan(): Token {
    const src = this.src
    while (this.i < src.length) {
      const c = src.charCodeAt(this.i)
      if (isSpace(c)) {
        this.advance()
        continue
      }
      if (c === 47 && this.code(1) === 47) {
        while (this.i < src.length && src.charCodeAt(this.i) !== 10) this.advance()
        continue
      }
      if (c === 47 && this.code(1) === 42) {
        this.skipBlockComment()
        continue
      }
      const line = this.line
      const pos = this.col + 1
      if (isDigit(c)) return this.number(line, pos, false)
      if (c === 45 && isDigit(this.code(1)) && this.unaryAllowed) {
        this.advance()
        return this.number(line, pos, true)
      }
      if (c === 34) return this.quoted('"', line, pos)
      if (c === 96) return this.backtick(line, pos)
      if (c === 39) return this.charLiteral(line, pos)
      if (isAlpha(c) || c === 95) return this.word(line, pos)
      if (c === 35 && (this.code(1) === 34 || this.code(1) === 35)) return this.rawString(line, pos)
      if (c === 35 && this.code(1) === 32) {
        this.advance()
        this.advance()
        if (this.code() === 123) {
          this.advance()
          this.fail(IMPROPER_SYMBOLS['# {']!, line, pos)
        }
        return this.token('reserved', '#', line, pos)
      }
      if (c === 33 && this.code(1) === 105 && this.code(2) === 110 && !isIdContinue(this.code(3))) {
        this.advance(); this.advance(); this.advance()
        return this.token('!in', '!in', line, pos)
      }
      return this.symbol(line, pos)
    }
    return this.token('eof', '{EOF}', this.line, this.col + 1)
  }

  private skipBlockComment(): void {
    this.advance()
    this.advance()
    let level = 1
    while (this.i < this.src.length && level > 0) {
      const c = this.code()
      if (c === 47 && this.code(1) === 42) {
        this.advance(); this.advance(); level++
      } else if (c === 42 && this.code(1) === 47) {
        this.advance(); this.advance(); level--
      } else {
        this.advance()
      }
    }
  }

  private symbol(line: number, pos: number): Token {
    const src = this.src
    let text = ''
    const three = src.slice(this.i, this.i + 3)
    const two = src.slice(this.i, this.i + 2)
    if (SYMBOLS3.includes(three)) text = three
    else if (SYMBOLS2.includes(two)) text = two
    else if (SYMBOLS1.includes(src[this.i]!)) text = src[this.i]!
    if (text === '') {
      const ch = this.advance()
      if (ch === '#') return this.token('reserved', '#', line, pos)
      this.fail(syntax.unexpected(ch), line, pos)
    }
    for (let k = 0; k < text.length; k++) this.advance()
    if (IMPROPER_SYMBOLS[text] !== undefined) this.fail(IMPROPER_SYMBOLS[text]!, line, pos)
    if (RESERVED_SYMBOLS.has(text)) return this.token('reserved', text, line, pos)
    return this.token(text, text, line, pos)
  }

  private word(line: number, pos: number): Token {
    const start = this.i
    while (this.i < this.src.length && isIdContinue(this.src.charCodeAt(this.i))) this.advance()
    const text = this.src.slice(start, this.i)
    if (KEYWORDS.has(text)) return this.token(text, text, line, pos)
    if (RESERVED_WORDS.has(text)) return this.token('reserved', text, line, pos)
    if (!/[A-Za-z]/.test(text)) this.fail(syntax.badIdentifier(text), line, pos)
    return this.token('ident', text, line, pos)
  }

  private number(line: number, pos: number, negated: boolean): Token {
    let text = this.advance()
    let radix = 10
    let valid = isDigit
    let hasPeriod = false
    let hasE = false
    for (;;) {
      const c = this.code()
      if (c === 95) {
        this.advance()
      } else if (c !== -1 && valid(c)) {
        text += this.advance()
      } else if (c === 46 && !hasPeriod && radix === 10) {
        const after = this.code(1)
        if (isDigit(after)) {
          this.advance()
          text += '.'
          hasPeriod = true
        } else if (after === -1 || after === 95 || after === 46 || isAlpha(after)) {
          break
        } else {
          this.advance()
          text += '.0'
          hasPeriod = true
        }
      } else if ((c === 101 || c === 69) && !hasE && radix === 10) {
        const after = this.code(1)
        if (isDigit(after)) {
          this.advance()
          text += 'e'
        } else if (after === 43 || after === 45) {
          this.advance()
          text += 'e' + this.advance()
        } else break
        hasE = true
        hasPeriod = true
      } else if ((c === 120 || c === 88 || c === 111 || c === 79 || c === 98 || c === 66) && text === '0') {
        text += this.advance()
        const lower = String.fromCharCode(c).toLowerCase()
        radix = lower === 'x' ? 16 : lower === 'o' ? 8 : 2
        valid = radix === 16 ? isHex : radix === 8 ? (d: number) => d >= 48 && d <= 55 : (d: number) => d === 48 || d === 49
      } else break
    }
    const token = this.token('int', text, line, pos)
    if (radix !== 10) {
      const digits = text.slice(2)
      const value = digits === '' ? -1n : BigInt((radix === 16 ? '0x' : radix === 8 ? '0o' : '0b') + digits)
      if (value < 0n || value > 0xffffffffffffffffn) this.fail(syntax.badNumber(digits), line, pos)
      token.int = BigInt.asIntN(64, negated ? -value : value)
      return token
    }
    const full = negated ? '-' + text : text
    if (/^-?\d+$/.test(full)) {
      const value = BigInt(full)
      if (value >= -(2n ** 63n) && value < 2n ** 63n) {
        token.int = value
        return token
      }
    }
    token.kind = 'float'
    token.float = Number(full)
    return token
  }

  /** A `"` string or the body of a `'` character: escapes, `""` for a quote, `\` + new line to continue. */
  private quoted(quote: string, line: number, pos: number): Token {
    this.advance()
    let out = ''
    let skipSpaceUntil = 0
    const q = quote.charCodeAt(0)
    for (;;) {
      if (skipSpaceUntil === 0) {
        // Copy a run of plain characters at once.
        const start = this.i
        let j = start
        for (let c = this.src.charCodeAt(j); j < this.src.length && c !== q && c !== 92 && c !== 10 && c !== 13 && (c < 0xd800 || c > 0xdfff); c = this.src.charCodeAt(++j));
        if (j > start) {
          out += this.src.slice(start, j)
          this.col += j - start
          this.i = j
        }
      }
      if (this.i >= this.src.length) this.fail(syntax.unterminatedString(), line, pos)
      let ch = this.advance()
      if (ch === quote) {
        if (this.src[this.i] === quote) {
          this.advance()
        } else {
          return this.token('str', out, line, pos)
        }
      }
      if (ch === '\r' && this.src[this.i] === '\n') continue
      if (ch === '\\') {
        if (this.i >= this.src.length) this.fail(syntax.unterminatedString(), line, pos)
        const escLine = this.line
        ch = this.advance()
        if (ch === '\r' && this.src[this.i] === '\n') ch = this.advance()
        switch (ch) {
          case 'n': out += '\n'; break
          case 'r': out += '\r'; break
          case 't': out += '\t'; break
          case '\\': out += '\\'; break
          case 'x': case 'u': case 'U': out += this.hexEscape(ch); break
          case '\n':
            if (quote !== '"') this.fail(syntax.unterminatedString(), line, pos)
            skipSpaceUntil = pos + 1
            break
          default:
            if (ch === quote) out += quote
            else this.fail(syntax.badEscape('\\' + ch), escLine, this.col)
        }
        continue
      }
      if (ch === '\n') this.fail(syntax.unterminatedString(), line, pos)
      if (skipSpaceUntil > 0 && /\s/u.test(ch) && this.col < skipSpaceUntil) continue
      skipSpaceUntil = 0
      out += ch
    }
  }

  private hexEscape(kind: string): string {
    const len = kind === 'x' ? 2 : kind === 'u' ? 4 : 8
    let seq = '\\' + kind
    let value = 0
    for (let k = 0; k < len; k++) {
      if (this.i >= this.src.length) this.fail(syntax.badEscape(seq), this.line, this.col)
      const ch = this.advance()
      seq += ch
      const d = ch.length === 1 && isHex(ch.charCodeAt(0)) ? parseInt(ch, 16) : -1
      if (d < 0) this.fail(syntax.badEscape(seq), this.line, this.col)
      value = value * 16 + d
    }
    if (value > 0x10ffff || (value >= 0xd800 && value <= 0xdfff)) this.fail(syntax.badEscape(seq), this.line, this.col)
    return String.fromCodePoint(value)
  }

  private charLiteral(line: number, pos: number): Token {
    if (this.code(1) === 39) {
      this.advance(); this.advance()
      this.fail(syntax.badChar(''), line, pos)
    }
    const body = this.quoted("'", line, pos).text
    const chars = Array.from(body)
    if (chars.length !== 1) this.fail(syntax.badChar(body), line, pos)
    return this.token('char', chars[0]!, line, pos)
  }

  private backtick(line: number, pos: number): Token {
    this.advance()
    if (this.src[this.i] === '\r' && this.src[this.i + 1] === '\n') {
      this.advance(); this.advance()
    } else if (this.src[this.i] === '\n') {
      this.advance()
    }
    return this.textBody(line, pos)
  }

  private continueText(): Token {
    this.inText = false
    return this.textBody(this.line, this.col + 1)
  }

  /** Verbatim text up to the closing back-tick (`str`) or up to `${` (`interp`, with `{` left to read). */
  private textBody(line: number, pos: number): Token {
    let out = ''
    for (;;) {
      const start = this.i
      let j = start
      for (let c = this.src.charCodeAt(j); j < this.src.length && c !== 96 && c !== 36 && c !== 10 && c !== 13 && (c < 0xd800 || c > 0xdfff); c = this.src.charCodeAt(++j));
      if (j > start) {
        out += this.src.slice(start, j)
        this.col += j - start
        this.i = j
      }
      if (this.i >= this.src.length) this.fail(syntax.unterminatedString(), line, pos)
      const ch = this.advance()
      if (ch === '`') {
        if (this.src[this.i] === '`') {
          this.advance()
          out += '`'
          continue
        }
        return this.token('str', out, line, pos)
      }
      if (ch === '$' && this.src[this.i] === '{') return this.token('interp', out, line, pos)
      if (ch === '\r' && this.src[this.i] === '\n') continue
      out += ch
    }
  }

  /** `#"..."#`, `##"..."##`: no escapes, closed by a quote and as many `#`. */
  private rawString(line: number, pos: number): Token {
    let hashes = 0
    while (this.src[this.i] === '#') {
      this.advance()
      hashes++
    }
    if (this.i >= this.src.length) this.fail(syntax.unterminatedString(), line, pos)
    const q = this.advance()
    if (q !== '"') this.fail(syntax.unexpected(q), line, pos)
    const close = '"' + '#'.repeat(hashes)
    const end = this.src.indexOf(close, this.i)
    if (end < 0) this.fail(syntax.unterminatedString(), line, pos)
    let out = ''
    while (this.i < end) out += this.advance()
    for (let k = 0; k < close.length; k++) this.advance()
    return this.token('str', out, line, pos)
  }
}

/** How Rhai prints a token in `Unexpected '...'`. */
export function tokenDisplay(token: Token): string {
  switch (token.kind) {
    case 'int': return token.int.toString()
    case 'float': return token.text
    case 'str': return `"${token.text}"`
    case 'interp': return 'string'
    default: return token.text
  }
}

export type { Position }

/**
 * What the parser carries: the token stream with one token of look-ahead, the nesting settings that Rhai
 * checks against its expression-depth limits, the declared variables (to reject assignments to constants
 * and to find what a closure captures), and the script functions defined so far.
 */
import { fnKey, type FnDef } from './ast.js'
import { RhaiSyntaxError, syntax, type Position } from './errors.js'
import { Lexer, type Token } from './lexer.js'

export interface CompileLimits {
  /** Expression nesting at global level (Rhai's default engine: 64, which the edit route compiles with). */
  maxExprDepth: number
  /** Expression nesting inside functions (default 32). */
  maxFunctionExprDepth: number
  /** Script functions and closures (0 = no limit; Meilisearch's task engine: 30). */
  maxFunctions: number
  /** Items of an array literal (0 = no limit; Meilisearch's task engine: 10,000). */
  maxArrayLiteral: number
  /** Properties of an object map literal (0 = no limit; Meilisearch's task engine: 10,000). */
  maxMapLiteral: number
}

/** Nesting state of the construct being parsed (Rhai's `ParseSettings`). */
export interface Settings {
  level: number
  pos: Position
  maxDepth: number
  global: boolean
  fnScope: boolean
  breakable: boolean
}

/** Variables declared in the function being parsed; closures record the outer names they use. */
export interface VarScope {
  stack: { name: string; constant: boolean }[]
  captures: string[] | null
  allowCapture: boolean
}

export class ParseContext {
  private lookahead: Token | null = null
  readonly functions = new Map<string, FnDef>()
  functionCount = 0
  scope: VarScope = { stack: [], captures: null, allowCapture: true }
  /** While parsing a `switch` case value, `|` separates alternatives instead of being an operator. */
  noPipe = false
  private anonymous = 0

  constructor(source: string, readonly limits: CompileLimits) {
    this.lexer = new Lexer(source)
  }

  private readonly lexer: Lexer

  peek(): Token {
    if (this.lookahead === null) this.lookahead = this.lexer.next()
    return this.lookahead
  }

  next(): Token {
    const token = this.peek()
    this.lookahead = null
    return token
  }

  /** Consume the next token if it is `kind`. */
  match(kind: string): boolean {
    if (this.peek().kind !== kind) return false
    this.lookahead = null
    return true
  }

  /** After the `}` of `${...}`: the next token continues the back-tick string. */
  resumeText(): void {
    this.lexer.resumeText()
  }

  fail(description: string, at: Position): never {
    throw new RhaiSyntaxError(description, at)
  }

  failAt(description: string, token: Token): never {
    throw new RhaiSyntaxError(description, { line: token.line, pos: token.pos })
  }

  levelUp(s: Settings, pos: Position = s.pos): Settings {
    if (s.maxDepth > 0 && s.level >= s.maxDepth) this.fail(syntax.tooDeep(), s.pos)
    return { level: s.level + 1, pos, maxDepth: s.maxDepth, global: s.global, fnScope: s.fnScope, breakable: s.breakable }
  }

  declare(name: string, constant: boolean): void {
    this.scope.stack.push({ name, constant })
  }

  /** Record a variable use: inside a closure, a name not declared there is captured from outside. */
  access(name: string): { constant: boolean } | undefined {
    const stack = this.scope.stack
    for (let i = stack.length - 1; i >= 0; i--) if (stack[i]!.name === name) return stack[i]
    const captures = this.scope.captures
    if (captures !== null && this.scope.allowCapture && !this.isFunctionName(name) && !captures.includes(name)) captures.push(name)
    if (!this.scope.allowCapture) this.scope.allowCapture = true
    return undefined
  }

  isFunctionName(name: string): boolean {
    for (const f of this.functions.values()) if (f.name === name) return true
    return false
  }

  checkFunctionCount(at: Position): void {
    if (this.limits.maxFunctions > 0 && this.functionCount >= this.limits.maxFunctions) this.fail(syntax.tooManyFunctions(), at)
  }

  addFunction(def: FnDef): void {
    const key = fnKey(def.name, def.params.length)
    if (this.functions.has(key)) this.fail(syntax.fnDuplicated(def.name, def.params.length), def.pos)
    this.functions.set(key, def)
    this.functionCount++
  }

  anonymousName(): string {
    return `anon$${this.anonymous++}`
  }
}

export const positionOf = (token: Token): Position => ({ line: token.line, pos: token.pos })

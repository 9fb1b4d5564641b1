/**
 * The syntax tree of a Rhai script: plain data, built by the parser, walked by the interpreter. Every node
 * carries the position Rhai reports for errors raised while evaluating it.
 */
import type { Position } from './errors.js'

export type Expr =
  | { k: 'unit'; pos: Position }
  | { k: 'bool'; value: boolean; pos: Position }
  | { k: 'int'; value: bigint; pos: Position }
  | { k: 'float'; value: number; pos: Position }
  | { k: 'str'; value: string; pos: Position }
  | { k: 'char'; value: string; pos: Position }
  | { k: 'interp'; parts: Expr[]; pos: Position }
  | { k: 'array'; items: Expr[]; pos: Position }
  | { k: 'map'; entries: [string, Expr][]; pos: Position }
  | { k: 'var'; name: string; pos: Position }
  | { k: 'this'; pos: Position }
  /** A call by name: script function, built-in, or a variable holding a function pointer. */
  | { k: 'call'; name: string; args: Expr[]; pos: Position }
  /** `root.prop`, `root[index]`, `root.method(args)`, in any succession. */
  | { k: 'chain'; root: Expr; steps: Step[]; pos: Position }
  /** Arithmetic, comparison, bit and range operators, evaluated by the operator table. */
  | { k: 'binary'; op: string; lhs: Expr; rhs: Expr; pos: Position }
  | { k: 'unary'; op: '-' | '+' | '!'; arg: Expr; pos: Position }
  /** `&&`, `||`, `??`: short-circuiting, over two or more operands. */
  | { k: 'logic'; op: '&&' | '||' | '??'; items: Expr[]; pos: Position }
  /** `a in b` is `b.contains(a)`. */
  | { k: 'in'; item: Expr; container: Expr; negated: boolean; pos: Position }
  /** A statement used as an expression: block, if, switch, loops. */
  | { k: 'stmt'; stmt: Stmt; pos: Position }
  /** `|a, b| body`: the function and the outer variables it captures. */
  | { k: 'closure'; fn: FnDef; captures: string[]; pos: Position }

export type Step =
  | { k: 'prop'; name: string; optional: boolean; pos: Position }
  | { k: 'index'; index: Expr; optional: boolean; pos: Position }
  | { k: 'method'; name: string; args: Expr[]; optional: boolean; pos: Position }

export interface SwitchCase {
  /** Literal values, or `a..b` / `a..=b` ranges of integer literals, that select this case. */
  values: Expr[]
  condition: Expr | null
  body: Stmt
}

export type Stmt =
  | { k: 'noop'; pos: Position }
  | { k: 'expr'; expr: Expr; pos: Position }
  | { k: 'let'; name: string; init: Expr | null; constant: boolean; pos: Position }
  | { k: 'assign'; target: Expr; op: string | null; value: Expr; pos: Position }
  | { k: 'block'; stmts: Stmt[]; pos: Position }
  | { k: 'if'; cond: Expr; then: Stmt; otherwise: Stmt | null; pos: Position }
  | { k: 'while'; cond: Expr | null; body: Stmt; pos: Position }
  | { k: 'do'; body: Stmt; cond: Expr; until: boolean; pos: Position }
  | { k: 'for'; name: string; counter: string | null; iterable: Expr; body: Stmt; pos: Position }
  | { k: 'break'; value: Expr | null; pos: Position }
  | { k: 'continue'; pos: Position }
  | { k: 'return'; value: Expr | null; pos: Position }
  | { k: 'throw'; value: Expr | null; pos: Position }
  | { k: 'switch'; subject: Expr; cases: SwitchCase[]; defaultCase: Stmt | null; pos: Position }
  | { k: 'try'; body: Stmt; errorVar: string | null; handler: Stmt; pos: Position }

export interface FnDef {
  /** The script name; anonymous closures get a generated one and `anonymous: true`. */
  name: string
  params: string[]
  body: Stmt
  anonymous: boolean
  pos: Position
}

export interface Program {
  statements: Stmt[]
  /** Script functions by `name/arity`. */
  functions: Map<string, FnDef>
}

export const fnKey = (name: string, arity: number) => `${name}/${arity}`

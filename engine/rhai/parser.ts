/**
 * The parser's entry: a script's text into a `Program` (top-level statements and script functions), or a
 * `RhaiSyntaxError` with Rhai's message and position. Limits are Rhai's parse-time limits; the defaults are
 * those of Rhai's default `Engine`, which is what Meilisearch's edit route compiles with before queueing.
 */
import type { Program } from './ast.js'
import { RhaiSyntaxError } from './errors.js'
import { ParseContext, type CompileLimits } from './parse-state.js'
import { parseGlobal } from './statements.js'

export type { CompileLimits } from './parse-state.js'

/** Rhai's default `Engine` (release build): what the edit route checks scripts with. */
export const ROUTE_COMPILE_LIMITS: CompileLimits = Object.freeze({
  maxExprDepth: 64,
  maxFunctionExprDepth: 32,
  maxFunctions: 0,
  maxArrayLiteral: 0,
  maxMapLiteral: 0,
})

/** Meilisearch's task engine (`update_by_function.rs`): depths 100/1000, 30 functions, 10,000 items. */
export const TASK_COMPILE_LIMITS: CompileLimits = Object.freeze({
  maxExprDepth: 100,
  maxFunctionExprDepth: 1000,
  maxFunctions: 30,
  maxArrayLiteral: 10_000,
  maxMapLiteral: 10_000,
})

export function parseProgram(source: string, limits: CompileLimits = ROUTE_COMPILE_LIMITS): Program {
  const p = new ParseContext(source, limits)
  try {
    const statements = parseGlobal(p, { level: 0, pos: { line: 1, pos: 0 }, maxDepth: limits.maxExprDepth, global: true, fnScope: false, breakable: false })
    return { statements, functions: p.functions }
  } catch (err) {
    if (err instanceof RhaiSyntaxError) throw err
    // Deeply nested input can exhaust the JavaScript stack before Rhai's depth limit is reached.
    if (err instanceof RangeError) throw new RhaiSyntaxError('Expression exceeds maximum complexity', { line: 1, pos: 1 })
    throw err
  }
}

/**
 * A compiled script and the ways to run it: `compileScript` (what the edit route calls before queueing; Rhai's
 * default parse limits) and `runScript` (evaluate with given variables; the edit layer builds on it).
 */
import type { Program } from './ast.js'
import { Interpreter } from './interpreter.js'
import { DEFAULT_LIMITS, type RunLimits } from './limits.js'
import { ROUTE_COMPILE_LIMITS, parseProgram, type CompileLimits } from './parser.js'
import type { Binding, Value } from './values.js'

export class RhaiProgram {
  constructor(readonly source: string, readonly program: Program) {}
}

/** Compile a script; throws `RhaiSyntaxError` with Rhai's message, e.g. `... (line 1, position 13)`. */
export function compileScript(source: string, limits: CompileLimits = ROUTE_COMPILE_LIMITS): RhaiProgram {
  return new RhaiProgram(source, parseProgram(source, limits))
}

export interface ScriptVariable {
  name: string
  value: Value
  constant?: boolean
}

export interface RunOptions {
  limits?: RunLimits
  /** Receives what `print` and `debug` write (discarded by default). */
  print?: (text: string) => void
}

export interface ScriptRun {
  /** The value of the last statement, or of `return`. */
  value: Value
  /** Global variables after the run, the given ones first (later `let`s may shadow them). */
  globals: Binding[]
  operations: number
}

/** Run a program with variables in scope; throws `RhaiRuntimeError`. */
export function runScript(compiled: RhaiProgram, variables: ScriptVariable[] = [], options: RunOptions = {}): ScriptRun {
  const globals: Binding[] = variables.map((v) => ({ name: v.name, value: v.value, constant: v.constant ?? false }))
  const interpreter = new Interpreter(compiled.program, options.limits ?? DEFAULT_LIMITS, globals, options.print)
  const value = interpreter.run()
  return { value, globals: interpreter.scope, operations: interpreter.budget.operations }
}

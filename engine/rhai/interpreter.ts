/**
 * The tree-walking evaluator: statements, expressions, variables and calls, with Rhai's semantics — blocks
 * have the value of their last statement, `break`/`continue`/`return` unwind through `flow` (no exceptions on
 * the hot path), script functions see only their parameters (closures also the variables they captured, shared
 * with the scope they came from), errors inside a function are reported "in call to function", and every
 * statement, expression, loop turn and call counts against the operation limit.
 *
 * Property, index and method chains live in chains.ts; loops, `switch` and `try` in control.ts.
 */
import { fnKey, type Expr, type FnDef, type Program, type Stmt } from './ast.js'
import { nativeOverloads, type NativeContext } from './builtins/index.js'
import { assignChain, evalChain } from './chains.js'
import { BREAK, CONTINUE, NONE, RETURN, runDo, runFor, runSwitch, runTry, runWhile } from './control.js'
import { RhaiRuntimeError, runtime, runtimeError, systemError, type Position } from './errors.js'
import { display } from './format.js'
import { Budget, type RunLimits } from './limits.js'
import { binary, compound, notFound, unary } from './operators.js'
import { FnPtr, RChar, own, typeName, type Binding, type Value } from './values.js'


/** The object of a method-style call to a script function (`x.f()` binds `this` to `x`). */
export interface ThisRef {
  value: Value
}

export class Interpreter implements NativeContext {
  readonly budget: Budget
  /** Variables visible to the code being run; a script function call swaps in its own. */
  scope: Binding[]
  thisRef: ThisRef | null = null
  flow = NONE
  flowValue: Value = null
  private readonly closures = new Map<string, FnDef>()

  constructor(
    readonly program: Program,
    limits: RunLimits,
    globals: Binding[],
    private readonly printer: (text: string) => void = () => {},
  ) {
    this.budget = new Budget(limits)
    this.scope = globals
  }

  /** Run the top-level statements; `return` ends the script. Global variables stay in `scope`. */
  run(): Value {
    let value: Value = null
    for (const stmt of this.program.statements) {
      value = this.exec(stmt)
      if (this.flow !== NONE) {
        value = this.flowValue
        this.flow = NONE
        break
      }
    }
    return value
  }

  // ---- statements ---------------------------------------------------------------------------------------

  exec(s: Stmt): Value {
    this.budget.tick(s.pos)
    switch (s.k) {
      case 'noop': return null
      case 'expr': return this.eval(s.expr)
      case 'let': {
        const value = s.init === null ? null : own(this.eval(s.init))
        if (this.scope.length >= this.budget.limits.maxVariables) throw systemError(runtime.tooManyVariables(), s.pos)
        this.scope.push({ name: s.name, value, constant: s.constant })
        return null
      }
      case 'assign': this.assign(s.target, s.op, s.value, s.pos); return null
      case 'block': return this.block(s.stmts)
      case 'if': {
        if (this.condition(s.cond)) return this.exec(s.then)
        return s.otherwise === null ? null : this.exec(s.otherwise)
      }
      case 'while': return runWhile(this, s)
      case 'do': return runDo(this, s)
      case 'for': return runFor(this, s)
      case 'break':
        this.flowValue = s.value === null ? null : own(this.eval(s.value))
        this.flow = BREAK
        return null
      case 'continue':
        this.flowValue = null
        this.flow = CONTINUE
        return null
      case 'return':
        this.flowValue = s.value === null ? null : own(this.eval(s.value))
        this.flow = RETURN
        return null
      case 'throw': {
        const value = s.value === null ? null : own(this.eval(s.value))
        throw new RhaiRuntimeError(runtime.thrown(display(value)), s.pos, 'thrown', value)
      }
      case 'switch': return runSwitch(this, s)
      case 'try': return runTry(this, s)
    }
  }

  block(stmts: Stmt[]): Value {
    const mark = this.scope.length
    let value: Value = null
    for (const stmt of stmts) {
      value = this.exec(stmt)
      if (this.flow !== NONE) break
    }
    this.scope.length = mark
    return value
  }

  condition(e: Expr): boolean {
    const v = this.eval(e)
    if (typeof v !== 'boolean') throw runtimeError(runtime.mismatch(typeName(v), 'bool'), e.pos)
    return v
  }

  // ---- expressions --------------------------------------------------------------------------------------

  eval(e: Expr): Value {
    switch (e.k) {
      case 'unit': return null
      case 'bool': case 'int': case 'float': case 'str': return e.value
      case 'char': return new RChar(e.value)
      case 'var': return this.variable(e.name, e.pos)
      case 'this':
        if (this.thisRef === null) throw runtimeError(runtime.unboundThis(), e.pos)
        return this.thisRef.value
      case 'chain': return evalChain(this, e)
      case 'call': return this.call(e.name, e.args, e.pos)
      case 'binary': {
        this.budget.tick(e.pos)
        const a = this.eval(e.lhs)
        const b = this.eval(e.rhs)
        const result = this.withPosition(e.pos, () => binary(e.op, a, b))
        if (typeof result === 'string' || Array.isArray(result) || result instanceof Map) this.sized(result, e.pos)
        return result
      }
      case 'unary': {
        this.budget.tick(e.pos)
        const a = this.eval(e.arg)
        return this.withPosition(e.pos, () => unary(e.op, a))
      }
      case 'logic': return this.logic(e)
      case 'in': {
        this.budget.tick(e.pos)
        const item = this.eval(e.item)
        const container = this.eval(e.container)
        const found = this.callValues('contains', [container, item], e.pos)
        return e.negated ? this.withPosition(e.pos, () => unary('!', found)) : found
      }
      case 'interp': {
        this.budget.tick(e.pos)
        let text = ''
        for (const part of e.parts) text += display(this.eval(part))
        return this.sized(text, e.pos)
      }
      case 'array': {
        this.budget.tick(e.pos)
        return this.sized(e.items.map((item) => own(this.eval(item))), e.pos)
      }
      case 'map': {
        this.budget.tick(e.pos)
        const map = new Map<string, Value>()
        for (const [key, value] of e.entries) map.set(key, own(this.eval(value)))
        return this.sized(map, e.pos)
      }
      case 'stmt': return this.exec(e.stmt)
      case 'closure': return this.closure(e.fn, e.captures, e.pos)
    }
  }

  private logic(e: Extract<Expr, { k: 'logic' }>): Value {
    this.budget.tick(e.pos)
    if (e.op === '??') {
      let value: Value = null
      for (const item of e.items) {
        value = this.eval(item)
        if (value !== null) return value
      }
      return value
    }
    const stopOn = e.op === '||'
    for (const item of e.items) {
      const v = this.eval(item)
      if (typeof v !== 'boolean') throw runtimeError(runtime.mismatch(typeName(v), 'bool'), item.pos)
      if (v === stopOn) return stopOn
    }
    return !stopOn
  }

  /** Errors raised without a position (arithmetic, data size) get `pos`. */
  withPosition<T>(pos: Position, f: () => T): T {
    try {
      return f()
    } catch (err) {
      if (err instanceof RhaiRuntimeError) err.fillPosition(pos)
      throw err
    }
  }

  /** Check a produced value against the size limits. */
  sized<T extends Value>(value: T, pos: Position): T {
    this.withPosition(pos, () => this.budget.checkSize(value))
    return value
  }

  findBinding(name: string): Binding | undefined {
    const scope = this.scope
    for (let i = scope.length - 1; i >= 0; i--) if (scope[i]!.name === name) return scope[i]
    return undefined
  }

  private variable(name: string, pos: Position): Value {
    const binding = this.findBinding(name)
    if (binding !== undefined) return binding.value
    for (const def of this.program.functions.values()) if (def.name === name) return new FnPtr(name)
    throw runtimeError(runtime.variableNotFound(name), pos)
  }

  private assign(target: Expr, op: string | null, valueExpr: Expr, pos: Position): void {
    const value = this.eval(valueExpr)
    if (target.k === 'chain') {
      assignChain(this, target, op, value, pos)
      return
    }
    if (target.k === 'this') {
      if (this.thisRef === null) throw runtimeError(runtime.unboundThis(), target.pos)
      this.thisRef.value = op === null ? own(value) : this.withPosition(pos, () => compound(op, this.thisRef!.value, value))
      return
    }
    if (target.k !== 'var') throw runtimeError(runtime.assignToConstant(''), pos)
    const binding = this.findBinding(target.name)
    if (binding === undefined) throw runtimeError(runtime.variableNotFound(target.name), target.pos)
    if (binding.constant) throw runtimeError(runtime.assignToConstant(target.name), target.pos)
    const next = op === null ? own(value) : this.withPosition(pos, () => compound(op, binding.value, own(value)))
    binding.value = this.sized(next, pos)
  }

  private closure(fn: FnDef, captures: string[], pos: Position): Value {
    this.closures.set(fn.name, fn)
    const captured: Binding[] = captures.map((name) => {
      const binding = this.findBinding(name)
      if (binding === undefined) throw runtimeError(runtime.variableNotFound(name), pos)
      return binding
    })
    return new FnPtr(fn.name, [], captured)
  }

  // ---- calls --------------------------------------------------------------------------------------------

  private call(name: string, argExprs: Expr[], pos: Position): Value {
    this.budget.tick(pos)
    const args = argExprs.map((a) => own(this.eval(a)))
    if (name === 'is_def_var' && args.length === 1 && typeof args[0] === 'string') return this.findBinding(args[0]) !== undefined
    return this.callValues(name, args, pos)
  }

  /** Call a function by name: script function, built-in, then a variable holding a function pointer. */
  callValues(name: string, args: Value[], pos: Position): Value {
    const def = this.program.functions.get(fnKey(name, args.length))
    if (def !== undefined) return this.callScript(def, args, [], pos, null)
    const overloads = nativeOverloads(name)
    if (overloads !== undefined) {
      const result = this.withPosition(pos, () => {
        for (const native of overloads) {
          const r = native({ ctx: this, args, setThis: () => {} })
          if (r !== undefined) return r
        }
        return undefined
      })
      if (result !== undefined) return this.sized(result, pos)
    }
    const binding = this.findBinding(name)
    if (binding !== undefined && binding.value instanceof FnPtr) return this.withPosition(pos, () => this.callFn(binding.value, args, pos))
    throw notFound(name, args).fillPosition(pos)
  }

  /** Run a script function with its own scope (captured variables first, then parameters). */
  callScript(def: FnDef, args: Value[], captured: Binding[], pos: Position, thisRef: ThisRef | null): Value {
    if (this.budget.level >= this.budget.limits.maxCallLevels) throw systemError(runtime.stackOverflow(), pos)
    const saved = { scope: this.scope, thisRef: this.thisRef }
    this.scope = [...captured, ...def.params.map((name, i) => ({ name, value: args[i]!, constant: false }))]
    this.thisRef = thisRef
    this.budget.level++
    try {
      const value = def.body.k === 'block' ? this.block(def.body.stmts) : this.exec(def.body)
      if (this.flow === RETURN) {
        this.flow = NONE
        return this.flowValue
      }
      this.flow = NONE
      return value
    } catch (err) {
      if (err instanceof RhaiRuntimeError) {
        if (err.kind === 'system') throw err.setPosition(pos)
        throw RhaiRuntimeError.inFunction(def.anonymous ? null : def.name, err, pos)
      }
      // A thread with a small stack runs out before `maxCallLevels`: the same error, at a lower depth.
      if (err instanceof RangeError) throw systemError(runtime.stackOverflow(), pos)
      throw err
    } finally {
      this.scope = saved.scope
      this.thisRef = saved.thisRef
      this.budget.level--
    }
  }

  // ---- NativeContext ------------------------------------------------------------------------------------

  callFn(fn: Value, args: Value[], pos: Position = { line: 0, pos: 0 }, thisRef: ThisRef | null = null): Value {
    if (typeof fn === 'string') return this.callValues(fn, args, pos)
    if (!(fn instanceof FnPtr)) throw notFound('call', [fn, ...args])
    const all = [...fn.curry, ...args]
    const closure = this.closures.get(fn.name)
    if (closure !== undefined) {
      if (closure.params.length !== all.length) throw notFound(fn.name, all)
      return this.callScript(closure, all, fn.captured, pos, thisRef)
    }
    return this.callValues(fn.name, all, pos)
  }

  arity(fn: Value): number | null {
    if (fn instanceof FnPtr) {
      const closure = this.closures.get(fn.name)
      if (closure !== undefined) return closure.params.length - fn.curry.length
      return this.scriptArity(fn.name, fn.curry.length)
    }
    return typeof fn === 'string' ? this.scriptArity(fn, 0) : null
  }

  private scriptArity(name: string, curried: number): number | null {
    let best: number | null = null
    for (const def of this.program.functions.values()) if (def.name === name) best = Math.max(best ?? 0, def.params.length - curried)
    return best
  }

  hasFunction(name: string, arity: number): boolean {
    return this.program.functions.has(fnKey(name, arity))
  }

  print(text: string): void {
    this.printer(text)
  }
}

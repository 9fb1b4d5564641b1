/**
 * Errors of the Rhai interpreter, with Rhai's own wording (`rhai::ParseError` and `rhai::EvalAltResult`
 * `Display`), so Meilisearch's messages carry over: the description, then ` (line L, position P)` when the
 * error has a position.
 */

/** A place in the script: 1-based line and 1-based character (Unicode scalar) on that line; line 0 is none. */
export interface Position {
  line: number
  pos: number
}

export const NO_POSITION: Position = Object.freeze({ line: 0, pos: 0 })

export function withPosition(description: string, position: Position): string {
  return position.line === 0 ? description : `${description} (line ${position.line}, position ${position.pos})`
}

/** A script that does not compile. `message` is Rhai's `ParseError` display. */
export class RhaiSyntaxError extends Error {
  constructor(readonly description: string, readonly position: Position) {
    super(withPosition(description, position))
    this.name = 'RhaiSyntaxError'
  }
}

/**
 * How Rhai classes a runtime error: `system` errors (limits) pass through function calls unwrapped and cannot
 * be caught by `try`; `thrown` carries the value given to `throw`.
 */
export type RuntimeErrorKind = 'error' | 'system' | 'thrown'

/** A script that fails while running. `message` is Rhai's `EvalAltResult` display. */
export class RhaiRuntimeError extends Error {
  constructor(
    readonly description: string,
    public position: Position,
    readonly kind: RuntimeErrorKind = 'error',
    readonly thrown: unknown = undefined,
  ) {
    super(withPosition(description, position))
    this.name = 'RhaiRuntimeError'
  }

  /** Errors raised with no position (arithmetic, data size) take the position of the call that raised them. */
  fillPosition(position: Position): this {
    if (this.position.line === 0 && position.line !== 0) {
      this.position = position
      this.message = withPosition(this.description, position)
    }
    return this
  }

  /** Limit errors take the position of each enclosing call in turn, ending with the outermost. */
  setPosition(position: Position): this {
    this.position = position
    this.message = withPosition(this.description, position)
    return this
  }

  /** Rhai's `ErrorInFunctionCall`: the inner error, then the call it happened in. */
  static inFunction(name: string | null, inner: RhaiRuntimeError, callPosition: Position): RhaiRuntimeError {
    const where = name === null ? 'in closure call' : `in call to function '${name}'`
    return new RhaiRuntimeError(`${inner.message}\n${where}`, callPosition, 'error', inner.thrown)
  }
}

/** Parse error descriptions (Rhai's `ParseErrorType` and `LexError` displays). */
export const syntax = {
  incomplete: () => 'Script is incomplete',
  unexpected: (what: string) => `Unexpected '${what}'`,
  missing: (token: string, why: string) => `Expecting '${token}' ${why}`,
  reserved: (word: string) => (/^[A-Za-z_][A-Za-z0-9_]*$/.test(word) ? `'${word}' is a reserved keyword` : `'${word}' is a reserved symbol`),
  unknownOperator: (op: string) => `Unknown operator: '${op}'`,
  exprExpected: (what: string) => `Expecting ${what} expression`,
  mismatched: (expected: string, actual: string) => `Expecting ${expected}, not ${actual}`,
  tooDeep: () => 'Expression exceeds maximum complexity',
  tooManyFunctions: () => 'Number of functions defined exceeds maximum limit',
  literalTooLarge: (what: string, max: number) => `${what} exceeds the maximum limit (${max})`,
  variableExpected: () => 'Expecting name of a variable',
  propertyExpected: () => 'Expecting name of a property',
  duplicatedProperty: (name: string) => `Duplicated property for object map literal: ${name}`,
  duplicatedVariable: (name: string) => `Duplicated variable name: ${name}`,
  assignToConstant: (name: string) => (name === '' ? 'Cannot assign to a constant value' : `Cannot assign to constant ${name}`),
  invalidLhs: () => 'Expression cannot be assigned to',
  loopBreak: () => 'Break statement should only be used inside a loop',
  wrongFnDefinition: () => 'Function definitions must be at global level and cannot be inside a block or another function',
  fnMissingName: () => 'Expecting function name in function declaration',
  fnMissingParams: (name: string) => `Expecting parameters for function ${name}`,
  fnDuplicatedParam: (fn: string, param: string) => `Duplicated parameter ${param} for function ${fn}`,
  fnMissingBody: (name: string) => (name === '' ? 'Expecting body statement block for anonymous function' : `Expecting body statement block for function ${name}`),
  fnDuplicated: (name: string, params: number) =>
    `Function ${name} with ${params === 0 ? 'no parameters' : params === 1 ? '1 parameter' : `${params} parameters`} already exists`,
  wrongSwitchIntegerCase: () => 'Numeric switch case cannot follow a range case',
  wrongSwitchDefaultCase: () => 'Default switch case must be the last',
  wrongSwitchCaseCondition: () => 'This switch case cannot have a condition',
  malformedIndex: (why: string) => why,
  improper: (why: string) => why,
  // LexError
  unterminatedString: () => 'Open string is not terminated',
  stringTooLong: (max: number) => `Length of string exceeds the maximum limit (${max})`,
  badEscape: (seq: string) => `Invalid escape sequence: '${seq}'`,
  badNumber: (text: string) => `Invalid number: '${text}'`,
  badChar: (text: string) => `Invalid character: '${text}'`,
  badIdentifier: (text: string) => `Variable name is not proper: '${text}'`,
}

/** Runtime error descriptions (Rhai's `EvalAltResult` displays). */
export const runtime = {
  variableNotFound: (name: string) => `Variable not found: ${name}`,
  functionNotFound: (signature: string) => `Function not found: ${signature}`,
  tooManyOperations: () => 'Too many operations',
  tooManyVariables: () => 'Too many variables defined',
  stackOverflow: () => 'Stack overflow',
  dataTooLarge: (what: 'Length of string' | 'Size of array/BLOB' | 'Size of object map') => `${what} too large`,
  thrown: (display: string) => (display === '' ? 'Runtime error' : `Runtime error: ${display}`),
  mismatch: (actual: string, expected: string) => `Data type incorrect: ${actual} (expecting ${expected})`,
  indexingType: (what: string) => `Indexer unavailable: ${what}`,
  arrayBounds: (len: number, index: bigint) =>
    `Array index ${index} out of bounds: ${len === 0 ? 'array is empty' : len === 1 ? 'only 1 element in array' : `only ${len} elements in array`}`,
  stringBounds: (len: number, index: bigint) =>
    `String index ${index} out of bounds: ${len === 0 ? 'string is empty' : len === 1 ? 'only 1 character in string' : `only ${len} characters in string`}`,
  bitBounds: (index: bigint) => `Bit-field index ${index} out of bounds: only 64 bits in bit-field`,
  forNotIterable: () => 'For loop expects iterable type',
  assignToConstant: (name: string) => `Cannot modify constant ${name}`,
  nonPureOnConstant: (name: string) => `Non-pure method '${name}' cannot be called on constant`,
  unknownProperty: (prop: string, type: string) => `Unknown property '${prop}' - a getter is not registered for type '${type}'`,
  noSetter: (prop: string, type: string, valueType: string) =>
    `No writable property '${prop}' - a setter is not registered for type '${type}' to handle '${valueType}'`,
  unboundThis: () => "'this' not bound",
}

export function runtimeError(description: string, position: Position = NO_POSITION): RhaiRuntimeError {
  return new RhaiRuntimeError(description, position)
}

/** A limit error: passes through function calls, cannot be caught. */
export function systemError(description: string, position: Position = NO_POSITION): RhaiRuntimeError {
  return new RhaiRuntimeError(description, position, 'system')
}

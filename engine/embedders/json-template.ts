/**
 * JSON templates with one placeholder, the `request` and `response` of a `rest` embedder (Meilisearch's
 * `InjectableValue`, `milli/src/vector/json_template/injectable_value.rs`).
 *
 * A template is any JSON value in which one string equals the placeholder (`{{text}}` in a request,
 * `{{embedding}}` in a response). An array whose second item is the repeat string `{{..}}` repeats its first item
 * once per value, so one request can carry several texts and one response several embeddings. `inject` builds a
 * request body from texts; `extract` finds the values at the placeholder in a response. The parse and extraction
 * errors are Meilisearch's, word for word.
 */

/** A step into a JSON value: an object key or an array index. */
export type PathComponent = { key: string } | { index: number }
export type ValuePath = PathComponent[]

/** `` `root.a[0].b` `` (Meilisearch's `path_with_root`). */
export function pathWithRoot(root: string, path: readonly PathComponent[]): string {
  let out = `\`${root}`
  for (const c of path) out += 'key' in c ? `.${c.key}` : `[${c.index}]`
  return `${out}\``
}

/** Why a template is refused; the message needs the names the caller uses (`error.message(root, ...)`). */
export type InjectableParsingError =
  | { kind: 'nestedRepeat'; path: ValuePath }
  | { kind: 'repeatNotInArray'; path: ValuePath }
  | { kind: 'badRepeatIndex'; path: ValuePath; index: number }
  | { kind: 'missingPlaceholderInRepeated'; path: ValuePath }
  | { kind: 'multipleRepeat'; path: ValuePath; previous: ValuePath }
  | { kind: 'multiplePlaceholder'; path: ValuePath; previous: ValuePath }
  | { kind: 'missingPlaceholder' }
  | { kind: 'bothArrayAndSingle'; single: ValuePath; array: ValuePath; inArray: ValuePath }

export function parsingErrorMessage(error: InjectableParsingError, root: string, placeholder: string, repeat: string): string {
  const at = (path: readonly PathComponent[]) => pathWithRoot(root, path)
  switch (error.kind) {
    case 'nestedRepeat': return `in ${at(error.path)}: "${repeat}" appears nested inside of a value that is itself repeated`
    case 'repeatNotInArray': return `in ${at(error.path)}: "${repeat}" appears outside of an array`
    case 'badRepeatIndex': return `in ${at(error.path)}: "${repeat}" expected at position #1, but found at position #${error.index}`
    case 'missingPlaceholderInRepeated': return `in ${at(error.path)}: Expected "${placeholder}" inside of the repeated value`
    case 'multipleRepeat': return `in ${at(error.path)}: Found "${repeat}", but it was already present in ${at(error.previous)}`
    case 'multiplePlaceholder': return `in ${at(error.path)}: Found "${placeholder}", but it was already present in ${at(error.previous)}`
    case 'missingPlaceholder': return `in \`${root}\`: "${placeholder}" not found`
    case 'bothArrayAndSingle': return `in ${at(error.single)}: Found "${placeholder}", but it was already present in ${at([...error.array, { index: 0 }, ...error.inArray])} (repeated)`
  }
}

class ParseFailure extends Error {
  constructor(readonly error: InjectableParsingError) {
    super(error.kind)
  }
}

interface ArrayPath {
  repeated: unknown
  toArray: ValuePath
  inItem: ValuePath
}

/** Failure of `extract`; `message(...)` words it as Meilisearch does. */
export class ExtractionError extends Error {
  constructor(
    readonly reason:
      | { kind: 'missing'; index: number; path: ValuePath; suggestion: string | null }
      | { kind: 'wrong'; found: string; index: number; path: ValuePath }
      | { kind: 'deserialize'; error: string; path: ValuePath },
    readonly context: { kind: 'single' } | { kind: 'findingArray' } | { kind: 'item'; index: number },
  ) {
    super(reason.kind)
  }

  /** The message, with the template's name, its placeholder and the type the values should have. */
  describe(root: string, placeholder: string, expectedType: string): string {
    const context = this.context.kind === 'single' ? `extracting a single "${placeholder}"`
      : this.context.kind === 'findingArray' ? `extracting the array of "${placeholder}"s`
      : `extracting item #${this.context.index} from the array of "${placeholder}"s`
    const r = this.reason
    if (r.kind === 'deserialize') {
      return `in ${pathWithRoot(root, r.path)}, while ${context}, expected ${lastNamedObject(root, r.path)} to be ${expectedType}, but failed to parse server response:\n  - ${r.error}`
    }
    const before = r.path.slice(0, r.index)
    const next = r.path[r.index]
    const named = lastNamedObject(root, before)
    if (r.kind === 'missing') {
      const missing = next === undefined ? 'unknown' : 'key' in next ? `key "${next.key}"` : `item #${next.index}`
      const hint = r.suggestion === null ? ''
        : `\n  - Hint: ${named} has key \`${r.suggestion}\`, did you mean ${pathWithRoot(root, [...before, { key: r.suggestion }])} in embedder configuration?`
      return `in ${pathWithRoot(root, before)}, while ${context}, configuration expects ${missing}, which is missing in response${hint}`
    }
    const expected = next === undefined ? 'unknown' : 'key' in next ? `an object with key \`${next.key}\`` : `an array with at least ${next.index + 1} item(s)`
    return `in ${pathWithRoot(root, before)}, while ${context}, configuration expects ${named} to be ${expected} but server sent ${r.found}`
  }
}

/** `` `name` ``, `` item #i inside `name` `` or the nested-array forms (Meilisearch's `LastNamedObject`). */
export function lastNamedObject(root: string, path: readonly PathComponent[]): string {
  let name = root
  let index: number | null = null
  let nesting = -1
  for (const c of path) {
    if ('key' in c) { name = c.key; index = null; nesting = -1 } else { index = c.index; nesting++ }
  }
  if (index === null) return `\`${name}\``
  if (nesting === 0) return `item #${index} inside \`${name}\``
  if (nesting === 1) return `item #${index} inside nested array in \`${name}\``
  return `item #${index} inside nested array (${nesting} levels of nesting) in \`${name}\``
}

/** How serde_json's `Value` displays in these messages (`format_value`). */
export function formatValue(value: unknown): string {
  if (Array.isArray(value)) return `an array of size ${value.length}`
  if (value !== null && typeof value === 'object') return `an object with ${Object.keys(value).length} field(s)`
  return JSON.stringify(value)
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
}

/** An edit distance of at most 2 with transpositions (the levenshtein automaton Meilisearch builds). */
function closeKey(wanted: string, object: Record<string, unknown>, distance: (a: string, b: string) => number): string | null {
  for (const key of Object.keys(object)) {
    const d = distance(wanted, key)
    if (d >= 1 && d <= 2) return key
  }
  return null
}

export class InjectableValue {
  private constructor(
    readonly template: unknown,
    private readonly single: ValuePath | null,
    private readonly array: ArrayPath | null,
  ) {}

  /** Parse `template`: the template, or why it is refused. */
  static parse(template: unknown, placeholder: string, repeat: string): InjectableValue | InjectableParsingError {
    const state: { single: ValuePath | null; array: ArrayPath | null } = { single: null, array: null }
    try {
      parseValue(template, placeholder, repeat, state, false, [])
    } catch (err) {
      if (err instanceof ParseFailure) return err.error
      throw err
    }
    if (state.single === null && state.array === null) return { kind: 'missingPlaceholder' }
    if (state.single !== null && state.array !== null) return { kind: 'bothArrayAndSingle', single: state.single, array: state.array.toArray, inArray: state.array.inItem }
    return new InjectableValue(template, state.single, state.array)
  }

  /** Whether the placeholder repeats (several values per request or response). */
  get repeated(): boolean {
    return this.array !== null
  }

  /** The template with `values` at the placeholder (one value, or one repeated item per value). */
  inject(values: readonly unknown[]): unknown {
    if (this.single) return injectAt(this.template, this.single, values[0])
    const { repeated, toArray, inItem } = this.array!
    return injectAt(this.template, toArray, values.map((v) => injectAt(repeated, inItem, v)))
  }

  /**
   * The values at the placeholder in `response`, in order, each converted by `convert` (which returns the value, or
   * serde's message when it does not fit). `distance` is an OSA edit distance, for the "did you mean" hint.
   * Throws `ExtractionError`.
   */
  extract<T>(response: unknown, convert: (value: unknown) => T | { error: string }, distance: (a: string, b: string) => number): T[] {
    const converted = (value: unknown, path: ValuePath, context: ExtractionError['context']): T => {
      const out = convert(value)
      if (out !== null && typeof out === 'object' && 'error' in out) throw new ExtractionError({ kind: 'deserialize', error: out.error, path }, context)
      return out as T
    }
    if (this.single) return [converted(extractAt(response, this.single, { kind: 'single' }, distance), this.single, { kind: 'single' })]
    const { toArray, inItem } = this.array!
    const array = extractAt(response, toArray, { kind: 'findingArray' }, distance)
    if (!Array.isArray(array)) {
      throw new ExtractionError({ kind: 'wrong', found: formatValue(array), index: toArray.length, path: [...toArray, { index: 0 }] }, { kind: 'findingArray' })
    }
    return array.map((item, index) => converted(extractAt(item, inItem, { kind: 'item', index }, distance), inItem, { kind: 'item', index }))
  }
}

function parseValue(value: unknown, placeholder: string, repeat: string, state: { single: ValuePath | null; array: ArrayPath | null }, nested: boolean, path: ValuePath): void {
  if (typeof value === 'string') {
    if (value === placeholder) {
      if (state.single !== null) throw new ParseFailure({ kind: 'multiplePlaceholder', path: [...path], previous: state.single })
      state.single = [...path]
    }
    if (value === repeat) throw new ParseFailure({ kind: 'repeatNotInArray', path: [...path] })
  } else if (Array.isArray(value)) {
    parseArray(value, placeholder, repeat, state, nested, path)
  } else if (isObject(value)) {
    for (const [key, v] of Object.entries(value)) {
      path.push({ key })
      parseValue(v, placeholder, repeat, state, nested, path)
      path.pop()
    }
  }
}

function parseArray(array: unknown[], placeholder: string, repeat: string, state: { single: ValuePath | null; array: ArrayPath | null }, nested: boolean, path: ValuePath): void {
  if (array.length >= 2 && array[1] === repeat) {
    if (nested) throw new ParseFailure({ kind: 'nestedRepeat', path: [...path] })
    if (state.array !== null) throw new ParseFailure({ kind: 'multipleRepeat', path: [...path], previous: state.array.toArray })
    if (array[0] === repeat) throw new ParseFailure({ kind: 'badRepeatIndex', path: [...path], index: 0 })
    const later = array.slice(2).indexOf(repeat)
    if (later >= 0) throw new ParseFailure({ kind: 'badRepeatIndex', path: [...path], index: later + 2 })
    // The repeated item is parsed on its own: its placeholder path starts at the item.
    const inItem: { single: ValuePath | null; array: ArrayPath | null } = { single: null, array: null }
    try {
      parseValue(array[0], placeholder, repeat, inItem, true, [])
    } catch (err) {
      if (err instanceof ParseFailure) throw new ParseFailure(prependPath(err.error, path))
      throw err
    }
    if (inItem.single === null) throw new ParseFailure({ kind: 'missingPlaceholderInRepeated', path: [...path, { index: 0 }] })
    state.array = { repeated: array[0], toArray: [...path], inItem: inItem.single }
    return
  }
  const at = array.indexOf(repeat)
  if (at >= 0) throw new ParseFailure({ kind: 'badRepeatIndex', path: [...path], index: at })
  array.forEach((v, index) => {
    path.push({ index })
    parseValue(v, placeholder, repeat, state, nested, path)
    path.pop()
  })
}

function prependPath(error: InjectableParsingError, prefix: ValuePath): InjectableParsingError {
  switch (error.kind) {
    case 'missingPlaceholder': return error
    case 'multipleRepeat': case 'multiplePlaceholder': return { ...error, path: [...prefix, ...error.path], previous: [...prefix, ...error.previous] }
    case 'bothArrayAndSingle': return { ...error, single: [...prefix, ...error.single], array: [...prefix, ...error.array] }
    default: return { ...error, path: [...prefix, ...error.path] }
  }
}

function injectAt(template: unknown, path: ValuePath, value: unknown): unknown {
  if (path.length === 0) return value
  const [head, ...rest] = path as [PathComponent, ...PathComponent[]]
  if ('key' in head) {
    const object = template as Record<string, unknown>
    const out: Record<string, unknown> = {}
    for (const key of Object.keys(object)) out[key] = key === head.key ? injectAt(object[key], rest, value) : object[key]
    return out
  }
  const array = (template as unknown[]).slice()
  array[head.index] = injectAt(array[head.index], rest, value)
  return array
}

function extractAt(value: unknown, path: ValuePath, context: ExtractionError['context'], distance: (a: string, b: string) => number): unknown {
  let current = value
  for (let i = 0; i < path.length; i++) {
    const c = path[i]!
    if ('key' in c) {
      if (!isObject(current)) throw new ExtractionError({ kind: 'wrong', found: formatValue(current), index: i, path }, context)
      if (!Object.prototype.hasOwnProperty.call(current, c.key)) {
        throw new ExtractionError({ kind: 'missing', index: i, path, suggestion: closeKey(c.key, current, distance) }, context)
      }
      current = current[c.key]
    } else {
      if (!Array.isArray(current)) throw new ExtractionError({ kind: 'wrong', found: formatValue(current), index: i, path }, context)
      if (c.index >= current.length) throw new ExtractionError({ kind: 'missing', index: i, path, suggestion: null }, context)
      current = current[c.index]
    }
  }
  return current
}

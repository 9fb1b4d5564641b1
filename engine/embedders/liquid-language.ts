/**
 * The Liquid dialect of document templates: liquidjs configured to accept what Meilisearch's parser
 * (`liquid::ParserBuilder::with_stdlib()`, liquid-rust's standard library) accepts, render values the way it does,
 * and word errors the way it does.
 *
 * - Tags: `assign`, `break`, `continue`, `cycle`, `decrement`, `include`, `increment`; blocks: `capture`, `case`,
 *   `comment`, `for`, `if`, `ifchanged`, `raw`, `tablerow`, `unless`. liquidjs's extras (`echo`, `liquid`,
 *   `render`, `layout`, `block`, `#`) are refused as unknown tags. `include` parses but fails when rendered:
 *   templates have no partials (and liquidjs's own `include` would read files).
 * - Filters: liquid-rust's standard list (`ALLOWED_FILTERS`); any other is refused when the template is parsed.
 * - Output: `nil` renders empty, arrays as their items concatenated, objects as key then value for each entry,
 *   numbers in plain decimal notation (Rust never prints an exponent).
 * - Variables: reading a missing field or variable in `{{ }}` fails the render (liquid-rust's `Unknown index` /
 *   `Unknown variable`); in an `if`/`unless` condition it is falsy. Deviation: liquidjs also lets a missing value
 *   through when the first filter is `default`, where Meilisearch fails.
 * - Limits: a render is bounded in time and memory, so a template cannot hang or exhaust a worker.
 */
import { Liquid, Tag, TagToken, type Context, type Emitter, type Template, type TopLevelToken } from 'liquidjs'

/** Filters of liquid-rust's standard library, sorted (its "available filters" list). */
export const ALLOWED_FILTERS = [
  'abs', 'append', 'at_least', 'at_most', 'capitalize', 'ceil', 'compact', 'concat', 'date', 'default', 'divided_by', 'downcase',
  'escape', 'escape_once', 'first', 'floor', 'join', 'last', 'lstrip', 'map', 'minus', 'modulo', 'newline_to_br', 'plus', 'prepend',
  'remove', 'remove_first', 'replace', 'replace_first', 'reverse', 'round', 'rstrip', 'size', 'slice', 'sort', 'sort_natural', 'split',
  'strip', 'strip_html', 'strip_newlines', 'times', 'truncate', 'truncatewords', 'uniq', 'upcase', 'url_decode', 'url_encode', 'where',
] as const
const TAGS = ['assign', 'break', 'continue', 'cycle', 'decrement', 'include', 'increment'] as const
const BLOCKS = ['capture', 'case', 'comment', 'for', 'if', 'ifchanged', 'raw', 'tablerow', 'unless'] as const

/** A number as Rust's `Display` prints it: shortest round-trip digits, never in exponent notation. */
export function formatNumber(x: number): string {
  const s = String(x)
  const m = /^(-?)(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(s)
  if (!m) return s
  const [, sign, first, rest = '', expText] = m
  const digits = first! + rest
  const exp = Number(expText)
  if (exp < 0) return `${sign}0.${'0'.repeat(-exp - 1)}${digits}`
  const point = exp + 1
  return sign + (digits.length <= point ? digits + '0'.repeat(point - digits.length) : `${digits.slice(0, point)}.${digits.slice(point)}`)
}

/** A value as liquid-rust renders it in `{{ }}`. */
export function renderValue(value: unknown): string {
  if (value === null || value === undefined) return ''
  if (typeof value === 'string') return value
  if (typeof value === 'number') return formatNumber(value)
  if (Array.isArray(value)) return value.map(renderValue).join('')
  if (typeof value === 'object') {
    const valueOf = (value as { valueOf?: () => unknown }).valueOf?.()
    if (valueOf !== value) return renderValue(valueOf)
    let out = ''
    for (const [k, v] of Object.entries(value)) out += k + renderValue(v)
    return out
  }
  return String(value)
}

/** The blocks of a tag up to its `{% end<name> %}`. */
function readBlock(token: TagToken, remain: TopLevelToken[], liquid: Liquid): Template[] {
  const templates: Template[] = []
  while (remain.length) {
    const next = remain.shift()!
    if (next instanceof TagToken && next.name === `end${token.name}`) return templates
    templates.push(liquid.parser.parseToken(next, remain))
  }
  throw new Error(`tag ${token.getText()} not closed`)
}

/** `{% ifchanged %}…{% endifchanged %}`: renders its body when it differs from the previous rendering. */
class IfChangedTag extends Tag {
  private readonly templates: Template[]
  constructor(token: TagToken, remain: TopLevelToken[], liquid: Liquid) {
    super(token, remain, liquid)
    this.templates = readBlock(token, remain, liquid)
  }
  *render(ctx: Context, emitter: Emitter): Generator<unknown, void, unknown> {
    const html = (yield this.liquid.renderer.renderTemplates(this.templates, ctx)) as string
    const seen = ctx.getRegister('ifchanged', new Map<IfChangedTag, string>())
    if (seen.get(this) !== html) emitter.write(html)
    seen.set(this, html)
  }
}

/** `{% include %}` parses (as in liquid-rust) but templates have no partials, so rendering it fails. */
class IncludeTag extends Tag {
  private readonly partial: string
  constructor(token: TagToken, remain: TopLevelToken[], liquid: Liquid) {
    super(token, remain, liquid)
    this.partial = token.args.trim().split(/\s+/)[0]?.replace(/^["']|["']$/g, '') ?? ''
  }
  render(): never {
    throw new Error(`Unknown partial-template\n  with:\n    requested partial=${this.partial}`)
  }
}

function createLanguage(): Liquid {
  const liquid = new Liquid({
    strictFilters: true,
    strictVariables: true,
    lenientIf: true,
    ownPropertyOnly: true,
    jsTruthy: false,
    outputEscape: renderValue,
    parseLimit: 1_000_000,
    renderLimit: 2_000,
    memoryLimit: 64 * 1024 * 1024,
  })
  const allowed = new Set<string>(ALLOWED_FILTERS)
  for (const name of Object.keys(liquid.filters)) if (!allowed.has(name)) delete liquid.filters[name]
  const tags = new Set<string>([...TAGS, ...BLOCKS])
  for (const name of Object.keys(liquid.tags)) if (!tags.has(name)) delete liquid.tags[name]
  liquid.registerTag('ifchanged', IfChangedTag)
  liquid.registerTag('include', IncludeTag)
  return liquid
}

let language: Liquid | null = null

/** The dialect's engine (one per thread, created on first use). */
export function liquidLanguage(): Liquid {
  return (language ??= createLanguage())
}

/** Tag and block names of the dialect, sorted (liquid-rust's "available tags" / "available blocks"). */
export const TAG_NAMES: readonly string[] = TAGS
export const BLOCK_NAMES: readonly string[] = BLOCKS

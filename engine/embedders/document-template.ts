/**
 * Document templates: the Liquid text that turns a document into the text an embedder embeds
 * (Meilisearch's `milli/src/prompt/`).
 *
 * The template sees two variables:
 *   - `doc`: the document (`{{ doc.title }}`, nested: `{{ doc.actor.name }}`);
 *   - `fields`: one `{ name, value, is_searchable }` per top-level field of the document, in the index's field order
 *     when the caller passes it (the order fields first appeared in the index, Meilisearch's fields-ids-map order, in
 *     which it renders stored documents), else in the document's key order. So a document renders the same text
 *     whatever order its keys were sent in.
 * The rendered text is cut to `documentTemplateMaxBytes` bytes on a character boundary.
 *
 * A template is parsed once (`DocumentTemplate.compile`) and rendered per document; Meilisearch's default template
 * takes a hand-written path that gives the same text several times faster (tests compare both).
 */
import { TesseraError } from '../errors/index.js'
import { DEFAULT_DOCUMENT_TEMPLATE, DEFAULT_DOCUMENT_TEMPLATE_MAX_BYTES } from './config.js'
import { parseFailureText, renderFailureText } from './liquid-errors.js'
import { liquidLanguage, renderValue } from './liquid-language.js'
import type { Template } from 'liquidjs'

export interface RenderContext {
  /** External id of the document, named in render errors. */
  documentId?: string
  /** Whether a top-level field is searchable (`field.is_searchable`). Default: every field is. */
  isSearchable?: (field: string) => boolean
  /**
   * The index's top-level fields in field-id order: `fields` lists the document's fields in this order (any it does
   * not name follow, in the document's order).
   */
  fieldNames?: readonly string[]
}

export interface TemplateField {
  name: string
  value: unknown
  is_searchable: boolean
}

/** `text` truncated to at most `maxBytes` UTF-8 bytes without splitting a character (Meilisearch's `truncate`). */
export function truncateUtf8(text: string, maxBytes: number): string {
  if (text.length <= maxBytes / 3 || Buffer.byteLength(text, 'utf8') <= maxBytes) return text
  const bytes = Buffer.from(text, 'utf8')
  let end = maxBytes
  while (end > 0 && (bytes[end]! & 0xc0) === 0x80) end--
  return bytes.subarray(0, end).toString('utf8')
}

/** Why `template` does not parse, as Meilisearch says it (`user error: cannot parse template: liquid: …`), or null. */
export function templateProblem(template: string): string | null {
  try {
    liquidLanguage().parse(template)
    return null
  } catch (err) {
    return `user error: cannot parse template: ${parseFailureText(err, template)}`
  }
}

/**
 * The settings-time check of an embedder's `documentTemplate` (Meilisearch's `validate_prompt`): throws
 * `invalid_settings_embedders` with ``.embedders.<name>.documentTemplate`: Invalid template: <problem>.``.
 * `name` is the embedder's name (`name.indexingEmbedder` for a composite's).
 */
export function checkDocumentTemplate(name: string, template: string): void {
  const problem = templateProblem(template)
  if (problem !== null) throw new TesseraError('invalid_settings_embedders', `\`.embedders.${name}.documentTemplate\`: Invalid template: ${problem}.`)
}

export class DocumentTemplate {
  private constructor(
    readonly text: string,
    /** Null: no limit. */
    readonly maxBytes: number | null,
    private readonly parsed: Template[] | null,
    private readonly usesFields: boolean,
  ) {}

  /** Parse `text` once. Throws `invalid_settings_embedders` when it does not parse (checked at settings time). */
  static compile(text: string = DEFAULT_DOCUMENT_TEMPLATE, maxBytes: number | null = DEFAULT_DOCUMENT_TEMPLATE_MAX_BYTES): DocumentTemplate {
    if (text === DEFAULT_DOCUMENT_TEMPLATE) return new DocumentTemplate(text, maxBytes, null, true)
    const language = liquidLanguage()
    let parsed: Template[]
    try {
      parsed = language.parse(text)
    } catch (err) {
      throw new TesseraError('invalid_settings_embedders', `Invalid template: user error: cannot parse template: ${parseFailureText(err, text)}.`)
    }
    const usesFields = language.globalVariablesSync(parsed).includes('fields')
    return new DocumentTemplate(text, maxBytes, parsed, usesFields)
  }

  /**
   * The text to embed for `document`. Throws `invalid_document_fields` when the template reads a field the
   * document lacks: ``user error: missing field in document `<id>`: liquid: Unknown index …``.
   */
  render(document: Record<string, unknown>, context: RenderContext = {}): string {
    const rendered = this.parsed === null ? renderDefault(document, context) : this.renderLiquid(this.parsed, document, context)
    return this.maxBytes === null ? rendered : truncateUtf8(rendered, this.maxBytes)
  }

  /** Render with liquidjs even for the default template (the reference the fast path is tested against). */
  renderWithLiquid(document: Record<string, unknown>, context: RenderContext = {}): string {
    const rendered = this.renderLiquid(this.parsed ?? liquidLanguage().parse(this.text), document, context)
    return this.maxBytes === null ? rendered : truncateUtf8(rendered, this.maxBytes)
  }

  private renderLiquid(parsed: Template[], document: Record<string, unknown>, context: RenderContext): string {
    const scope = { doc: document, fields: this.usesFields ? templateFields(document, context) : [] }
    try {
      return liquidLanguage().renderSync(parsed, scope) as string
    } catch (err) {
      const where = context.documentId === undefined ? '' : ` \`${context.documentId}\``
      throw new TesseraError('invalid_document_fields', `user error: missing field in document${where}: ${renderFailureText(err, scope)}`)
    }
  }
}

/** Positions of the index's field names, computed once per list (a batch renders many documents with one). */
const positions = new WeakMap<readonly string[], Map<string, number>>()

/** The document's top-level field names, in the index's field order when given. */
export function orderedFieldNames(document: Record<string, unknown>, fieldNames: readonly string[] | undefined): string[] {
  const own = Object.keys(document)
  if (fieldNames === undefined || own.length < 2) return own
  let at = positions.get(fieldNames)
  if (at === undefined) positions.set(fieldNames, at = new Map(fieldNames.map((name, i) => [name, i])))
  const known = at
  const rank = (name: string, i: number) => known.get(name) ?? fieldNames.length + i
  return own.map((name, i) => ({ name, rank: rank(name, i) })).sort((a, b) => a.rank - b.rank).map((e) => e.name)
}

/** The `fields` variable of a document. */
export function templateFields(document: Record<string, unknown>, context: RenderContext): TemplateField[] {
  const searchable = context.isSearchable ?? (() => true)
  return orderedFieldNames(document, context.fieldNames).map((name) => ({ name, value: document[name], is_searchable: searchable(name) }))
}

/** Meilisearch's default template without the interpreter: `name: value\n` per searchable, non-nil field. */
function renderDefault(document: Record<string, unknown>, context: RenderContext): string {
  const searchable = context.isSearchable ?? (() => true)
  let out = ''
  for (const name of orderedFieldNames(document, context.fieldNames)) {
    const value = document[name]
    if (value === null || value === undefined || !searchable(name)) continue
    out += `${name}: ${renderValue(value)}\n`
  }
  return out
}

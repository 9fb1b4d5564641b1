/**
 * `POST /render-template` (Meilisearch's render route, behind the `renderRoute` experimental feature): renders a
 * document template — given inline, an embedder's, or the index's chat template — on a document given inline or
 * read from an index, and answers the template with its rendering (`rendered: null` without an input).
 *
 * Not supported: fragments (`indexingFragment`, `searchFragment`, `inlineFragment`) and `inlineSearch` inputs, which
 * belong to multimodal embedders; they answer `invalid_render_template` / `invalid_render_input`.
 */
import type { Engine } from '../engine.js'
import { TesseraError } from '../errors/index.js'
import { DocumentTemplate, templateProblem } from '../embedders/document-template.js'
import { DEFAULT_DOCUMENT_TEMPLATE, DEFAULT_DOCUMENT_TEMPLATE_MAX_BYTES, embedderKind } from '../embedders/config.js'
import { canonicalId } from '../documents/read.js'

export interface RenderQuery {
  template: { kind: string; indexUid?: string; embedder?: string; fragment?: string; inline?: unknown; documentTemplateMaxBytes?: number }
  input: { kind: string; indexUid?: string; id?: string; inline?: unknown } | null
}

export interface RenderResult {
  template: string
  rendered: string | null
}

const badTemplate = (message: string) => new TesseraError('invalid_render_template', message)
const badInput = (message: string) => new TesseraError('invalid_render_input', message)

/** Meilisearch's "parameter `x` missing / disallowed for kind `k`" checks (its parameter names are snake_case). */
function checkParams(error: (m: string) => TesseraError, kind: string, given: Record<string, unknown>, required: string[], allowed: string[]): void {
  const snake = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)
  for (const name of required) if (given[name] === undefined) throw error(`parameter \`${snake(name)}\` missing for kind \`${kind}\``)
  for (const [name, value] of Object.entries(given)) {
    if (name !== 'kind' && value !== undefined && !required.includes(name) && !allowed.includes(name)) throw error(`parameter \`${snake(name)}\` disallowed for kind \`${kind}\``)
  }
}

function fetchTemplate(engine: Engine, t: RenderQuery['template']): DocumentTemplate {
  const maxBytes = t.documentTemplateMaxBytes
  switch (t.kind) {
    case 'inlineDocumentTemplate': {
      checkParams(badTemplate, t.kind, t, ['inline'], ['documentTemplateMaxBytes'])
      if (typeof t.inline !== 'string') throw badTemplate('inline document templates must be strings')
      const problem = templateProblem(t.inline)
      if (problem !== null) throw badTemplate(problem)
      return DocumentTemplate.compile(t.inline, maxBytes ?? DEFAULT_DOCUMENT_TEMPLATE_MAX_BYTES)
    }
    case 'documentTemplate': {
      checkParams(badTemplate, t.kind, t, ['indexUid', 'embedder'], ['documentTemplateMaxBytes'])
      const settings = engine.settings.of(engine.index(t.indexUid!).id)
      const embedder = settings.embedders[t.embedder!]
      if (!embedder) throw badTemplate(`cannot find embedder \`${t.embedder}\` in index \`${t.indexUid}\``)
      const kind = embedderKind(embedder.source)
      if (kind === 'userProvided' || kind === 'composite') throw badTemplate(`embedder \`${t.embedder}\` in index \`${t.indexUid}\` does not use a document template.`)
      return DocumentTemplate.compile(embedder.documentTemplate ?? DEFAULT_DOCUMENT_TEMPLATE, maxBytes ?? embedder.documentTemplateMaxBytes ?? DEFAULT_DOCUMENT_TEMPLATE_MAX_BYTES)
    }
    case 'chatDocumentTemplate': {
      engine.features.require('chatCompletions', 'accessing chat settings')
      checkParams(badTemplate, t.kind, t, ['indexUid'], ['documentTemplateMaxBytes'])
      const chat = engine.settings.of(engine.index(t.indexUid!).id).chat
      return DocumentTemplate.compile(chat.documentTemplate, maxBytes ?? chat.documentTemplateMaxBytes)
    }
    case 'indexingFragment': case 'searchFragment': case 'inlineFragment':
      throw badTemplate(`template kind \`${t.kind}\` is not supported: Tessera has no multimodal embedders`)
    default:
      throw badTemplate(`Unknown value \`${t.kind}\`: expected one of \`documentTemplate\`, \`chatDocumentTemplate\`, \`indexingFragment\`, \`searchFragment\`, \`inlineDocumentTemplate\`, \`inlineFragment\``)
  }
}

function fetchInput(engine: Engine, input: NonNullable<RenderQuery['input']>): { document: Record<string, unknown>; id?: string } {
  switch (input.kind) {
    case 'inlineDocument': {
      checkParams(badInput, input.kind, input, ['inline'], [])
      if (input.inline === null || typeof input.inline !== 'object' || Array.isArray(input.inline)) {
        throw badInput(`parsing inline document: invalid type: ${Array.isArray(input.inline) ? 'sequence' : JSON.stringify(input.inline)}, expected a map`)
      }
      return { document: input.inline as Record<string, unknown> }
    }
    case 'indexDocument': {
      checkParams(badInput, input.kind, input, ['indexUid', 'id'], [])
      const meta = engine.index(input.indexUid!)
      const ext = canonicalId(input.id!)
      const document = ext === null ? undefined : engine.documents.get(meta.id, ext)
      if (!document) throw new TesseraError('render_document_not_found', `document \`${input.id}\` not found in \`${input.indexUid}\``)
      return { document: document as Record<string, unknown>, id: input.id! }
    }
    case 'inlineSearch':
      throw badInput('input kind `inlineSearch` is not supported: Tessera has no multimodal embedders')
    default:
      throw badInput(`Unknown value \`${input.kind}\`: expected one of \`indexDocument\`, \`inlineDocument\`, \`inlineSearch\``)
  }
}

export function renderTemplate(engine: Engine, query: RenderQuery): RenderResult {
  engine.features.require('renderRoute', 'Using the render route')
  const template = fetchTemplate(engine, query.template)
  if (query.input === null) return { template: template.text, rendered: null }
  const { document, id } = fetchInput(engine, query.input)
  try {
    return { template: template.text, rendered: template.render(document, id === undefined ? {} : { documentId: id }) }
  } catch (err) {
    if (err instanceof TesseraError) throw new TesseraError('template_rendering_error', err.message)
    throw err
  }
}

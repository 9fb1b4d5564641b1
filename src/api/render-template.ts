/**
 * The `POST /render-template` body (Meilisearch's `RenderQuery`): `template` (required) and `input` (optional), each
 * an object with a `kind` and the parameters that kind takes; what a kind requires or forbids is checked by the
 * engine (engine/operations/render-template.ts), as Meilisearch checks it after deserializing.
 */
import type { RenderQuery } from '../../engine/operations/render-template.js'
import { at, expectEnum, expectObject, expectString, expectUsize, missingField, type Path } from './deserr.js'

const TEMPLATE_FIELDS = ['kind', 'indexUid', 'embedder', 'fragment', 'inline', 'documentTemplateMaxBytes']
const TEMPLATE_KINDS = ['documentTemplate', 'chatDocumentTemplate', 'indexingFragment', 'searchFragment', 'inlineDocumentTemplate', 'inlineFragment'] as const
const INPUT_FIELDS = ['kind', 'indexUid', 'id', 'inline']
const INPUT_KINDS = ['indexDocument', 'inlineDocument', 'inlineSearch'] as const

/** Fields given as null count as absent (deserr's `Option` defaults). */
function present(obj: Record<string, unknown>, key: string): boolean {
  return obj[key] !== undefined && obj[key] !== null
}

function template(value: unknown, path: Path): RenderQuery['template'] {
  const code = 'invalid_render_template'
  const obj = expectObject(value, path, TEMPLATE_FIELDS, code, code)
  if (!('kind' in obj)) throw missingField(code, path, 'kind')
  const out: RenderQuery['template'] = { kind: expectEnum(obj.kind, at(path, 'kind'), code, TEMPLATE_KINDS) }
  if (present(obj, 'indexUid')) out.indexUid = expectString(obj.indexUid, at(path, 'indexUid'), code)
  if (present(obj, 'embedder')) out.embedder = expectString(obj.embedder, at(path, 'embedder'), code)
  if (present(obj, 'fragment')) out.fragment = expectString(obj.fragment, at(path, 'fragment'), code)
  if (present(obj, 'inline')) out.inline = obj.inline
  if (present(obj, 'documentTemplateMaxBytes')) out.documentTemplateMaxBytes = expectUsize(obj.documentTemplateMaxBytes, at(path, 'documentTemplateMaxBytes'), code)
  return out
}

function input(value: unknown, path: Path): NonNullable<RenderQuery['input']> {
  const code = 'invalid_render_input'
  const obj = expectObject(value, path, INPUT_FIELDS, code, code)
  if (!('kind' in obj)) throw missingField(code, path, 'kind')
  const out: NonNullable<RenderQuery['input']> = { kind: expectEnum(obj.kind, at(path, 'kind'), code, INPUT_KINDS) }
  if (present(obj, 'indexUid')) out.indexUid = expectString(obj.indexUid, at(path, 'indexUid'), code)
  if (present(obj, 'id')) out.id = expectString(obj.id, at(path, 'id'), code)
  if ('inline' in obj) out.inline = obj.inline
  return out
}

export function parseRenderQuery(body: unknown): RenderQuery {
  const obj = expectObject(body, '', ['template', 'input'])
  if (!('template' in obj)) throw missingField('bad_request', '', 'template')
  return { template: template(obj.template, '.template'), input: obj.input === undefined || obj.input === null ? null : input(obj.input, '.input') }
}

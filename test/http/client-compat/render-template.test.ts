/**
 * `POST /render-template` through the official client, as its own suite drives it (`tests/render-template.test.ts`),
 * plus the embedder and stored-document forms and the errors: the `renderRoute` feature gate, parameters missing or
 * disallowed for a kind, a missing document, a template that does not parse, and the keys that may not render.
 */
import t from 'tap'
import { authServerFor, MASTER_KEY } from '../keys/auth-server.js'
import { err } from '../../helpers/meili.js'

const INLINE = {
  template: { kind: 'inlineDocumentTemplate', inline: 'An inline document template rendered on {{doc.id}}' },
  input: { kind: 'inlineDocument', inline: { id: 'this document' } },
} as const

t.test('render template', async (t) => {
  const server = await authServerFor(t)
  const master = server.clientWith(MASTER_KEY)
  const render = (body: unknown, key: string | null = MASTER_KEY) => server.as(key, '/render-template', { method: 'POST', json: body })

  const off = await render(INLINE)
  t.strictSame(off.body, err('Using the render route requires enabling the `render_route` experimental feature. See https://github.com/orgs/meilisearch/discussions/888', 'feature_not_enabled'))
  await master.updateExperimentalFeatures({ renderRoute: true } as never)

  const r = await master.renderTemplate(INLINE)
  t.strictSame(r, { template: INLINE.template.inline, rendered: 'An inline document template rendered on this document' })
  t.strictSame((await render({ template: INLINE.template })).body, { template: INLINE.template.inline, rendered: null }, 'no input')
  t.strictSame((await render({ ...INLINE, template: { ...INLINE.template, documentTemplateMaxBytes: 5 } })).body.rendered, 'An in', 'cut to the bytes asked')

  await master.index('movies').updateEmbedders({ manual: { source: 'userProvided', dimensions: 2 } }).waitTask()
  await master.index('movies').updateEmbedders({ rest: { source: 'rest', url: 'http://127.0.0.1:1/embed', dimensions: 2, request: { input: '{{text}}' }, response: { v: '{{embedding}}' }, documentTemplate: 'A movie titled {{doc.title}}' } } as never).waitTask()
  await master.index('movies').addDocuments([{ id: 1, title: 'Carol', _vectors: { manual: [0, 1], rest: [1, 0] } }]).waitTask()
  const stored = await render({ template: { kind: 'documentTemplate', indexUid: 'movies', embedder: 'rest' }, input: { kind: 'indexDocument', indexUid: 'movies', id: '1' } })
  t.strictSame(stored.body, { template: 'A movie titled {{doc.title}}', rendered: 'A movie titled Carol' }, 'an embedder template on a stored document')

  const cases: [unknown, unknown, number][] = [
    [{ template: { kind: 'documentTemplate', indexUid: 'movies', embedder: 'manual' } }, err('embedder `manual` in index `movies` does not use a document template.', 'invalid_render_template'), 400],
    [{ template: { kind: 'documentTemplate', indexUid: 'movies', embedder: 'nope' } }, err('cannot find embedder `nope` in index `movies`', 'invalid_render_template'), 400],
    [{ template: { kind: 'documentTemplate', indexUid: 'movies' } }, err('parameter `embedder` missing for kind `documentTemplate`', 'invalid_render_template'), 400],
    [{ template: { kind: 'inlineDocumentTemplate', inline: 'x', indexUid: 'movies' } }, err('parameter `index_uid` disallowed for kind `inlineDocumentTemplate`', 'invalid_render_template'), 400],
    [{ template: { kind: 'inlineDocumentTemplate', inline: 3 } }, err('inline document templates must be strings', 'invalid_render_template'), 400],
    [{ ...INLINE, input: { kind: 'indexDocument', indexUid: 'movies', id: '9' } }, err('document `9` not found in `movies`', 'render_document_not_found'), 404],
    [{ ...INLINE, input: { kind: 'inlineDocument' } }, err('parameter `inline` missing for kind `inlineDocument`', 'invalid_render_input'), 400],
    [{ template: { kind: 'documentTemplate', indexUid: 'nope', embedder: 'x' } }, err('Index `nope` not found.', 'index_not_found'), 404],
  ]
  for (const [body, expected, status] of cases) {
    const res = await render(body)
    t.equal(res.status, status, JSON.stringify(body))
    t.strictSame(res.body, expected)
  }
  const unparsable = await render({ template: { kind: 'inlineDocumentTemplate', inline: '{% if %}' } })
  t.equal(unparsable.body.code, 'invalid_render_template')
  t.match(unparsable.body.message, /^user error: cannot parse template/)
  const missingField = await render({ ...INLINE, template: { kind: 'inlineDocumentTemplate', inline: '{{ doc.title.name }}' } })
  t.equal(missingField.body.code, 'template_rendering_error')

  const searchKey = (await master.getKeys()).results.find((k) => k.name === 'Default Search API Key')!.key
  t.equal((await render(INLINE, searchKey)).body.code, 'invalid_api_key')
  t.equal((await render(INLINE, null)).body.code, 'missing_authorization_header')
  const other = await server.createKey({ actions: ['*'], indexes: ['other'] })
  t.equal((await render(INLINE, other.key)).status, 200, 'an inline render names no index')
  t.equal((await render({ template: { kind: 'documentTemplate', indexUid: 'movies', embedder: 'rest' } }, other.key)).body.code, 'invalid_api_key', 'an index the key does not cover')
})

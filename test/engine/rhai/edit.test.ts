/**
 * Editing one document and a chunk of documents as Meilisearch's edit task does: `doc` and `context` in scope,
 * `doc = ()` deletes, unchanged documents are reported as such, a changed primary key or a non-object `doc` is
 * refused, and failures carry Meilisearch's task error (`edit_documents_by_function_error`).
 */
import t from 'tap'
import { TesseraError } from '../../../engine/errors/index.js'
import { compileScript, editChunk, editDocument, editRouteError, editTaskError, RhaiSyntaxError } from '../../../engine/rhai/index.js'

const edit = (src: string, doc: Record<string, unknown>, context?: unknown) => editDocument(compileScript(src), doc, { primaryKey: 'id', context })

t.test('outcomes', async (t) => {
  t.same(edit('doc.title = doc.title.to_upper(); doc.views += 1', { id: 1, title: 'hi', views: 2 }), { kind: 'edited', json: '{"id":1,"title":"HI","views":3}' })
  t.same(edit('doc = ()', { id: 1 }), { kind: 'deleted' })
  t.same(edit('if doc.id % 3 != 0 { doc = (); } else { doc.title = "kefir"; }', { id: 3 }), { kind: 'edited', json: '{"id":3,"title":"kefir"}' })
  t.same(edit('let x = doc.title; x = "other"', { id: 1, title: 't' }), { kind: 'unchanged' }, 'copies do not change the document')
  t.same(edit('doc.title = doc.title', { id: 1, title: 't', z: 1, a: 2 }), { kind: 'unchanged' }, 'key order alone is no change')
  t.same(edit('doc.n = 1.0', { id: 1, n: 1 }), { kind: 'edited', json: '{"id":1,"n":1.0}' }, 'an INT turned FLOAT is a change')
  t.same(edit('doc.tags.push(context.tag)', { id: 1, tags: ['a'] }, { tag: 'b' }), { kind: 'edited', json: '{"id":1,"tags":["a","b"]}' })
  t.same(edit('doc.title = `✨ ${doc.title.to_upper()} ✨`', { id: 1, title: 'x' }), { kind: 'edited', json: '{"id":1,"title":"✨ X ✨"}' })
  t.same(edit('let doc = #{id: 1, shadow: true};', { id: 1 }), { kind: 'edited', json: '{"id":1,"shadow":true}' }, 'a global let shadowing doc is the result, as Scope::remove finds it')
  t.same(edit('{ let doc = (); }', { id: 1 }), { kind: 'unchanged' }, 'a block-local doc is gone at the end')
  t.same(edit('doc.a = 1; return 5; doc.b = 2', { id: 1 }), { kind: 'edited', json: '{"a":1,"id":1}' }, 'return ends the script; its value is ignored')
  t.same(edit('doc.id = "1"', { id: 1 }), { kind: 'edited', json: '{"id":"1"}' }, 'the same external id in another type is not a change of primary key')
})

t.test('refused results', async (t) => {
  const code = (f: () => unknown) => {
    try {
      f()
      return 'no error'
    } catch (err) {
      t.ok(err instanceof TesseraError)
      return `${(err as TesseraError).code}: ${(err as Error).message}`
    }
  }
  t.equal(code(() => edit('doc = 5', { id: 1 })), 'edit_documents_by_function_error: Document editions must keep documents as objects')
  t.equal(code(() => edit('doc.id = 2', { id: 1 })), "edit_documents_by_function_error: Document editions cannot modify a document's primary key")
  t.equal(code(() => edit('doc.remove("id")', { id: 1, a: 1 })), 'missing_document_id: Document doesn\'t have a `id` attribute: `{"a":1}`.')
  t.match(code(() => edit('doc.id = "a b"', { id: 1 })), /^invalid_document_id: Document identifier `"a b"` is invalid/)
  t.match(code(() => edit('doc.id = 1.0', { id: 1 })), /^invalid_document_id: /)
})

t.test('context is a constant, and absent when not given', async (t) => {
  t.throws(() => edit('context.a = 1', { id: 1 }, { a: 0 }), /Cannot modify constant context/)
  t.throws(() => edit('doc.x = context', { id: 1 }), /Variable not found: context/)
  t.same(edit('doc.x = context.list[1]', { id: 1 }, { list: [1, 2] }), { kind: 'edited', json: '{"id":1,"x":2}' })
})

t.test("Meilisearch's error wording", async (t) => {
  let runtime: unknown
  try {
    edit('doc.x = 1 / 0', { id: 1 })
  } catch (err) {
    runtime = err
  }
  const e = editTaskError(runtime)
  t.equal(e.code, 'edit_documents_by_function_error')
  t.equal(e.message, 'Document edition runtime error encountered while running the function: Division by zero: 1 / 0 (line 1, position 11)')
  let syntax: unknown
  try {
    compileScript('let x = ')
  } catch (err) {
    syntax = err
  }
  t.ok(syntax instanceof RhaiSyntaxError)
  const route = editRouteError(syntax as RhaiSyntaxError)
  t.same([route.code, route.message], ['bad_request', 'Script is incomplete (line 1, position 9)'])
  t.equal(editTaskError(syntax).message, 'Document edition runtime error encountered while compiling the function: Script is incomplete (line 1, position 9)')
})

t.test('chunk job: plain data in and out', async (t) => {
  const out = editChunk({
    script: 'if doc.id == 2 { doc = () } else if doc.id == 3 { } else { doc.seen = context.stamp }',
    context: '{"stamp":"today"}',
    primaryKey: 'id',
    documents: ['{"id":1}', '{"id":2}', '{"id":3}'],
  })
  t.same(out, { outcomes: [{ kind: 'edited', json: '{"id":1,"seen":"today"}' }, { kind: 'deleted' }, { kind: 'unchanged' }], error: null })
  t.same(JSON.parse(JSON.stringify(out)), out, 'survives structured copies')

  const failing = editChunk({ script: 'doc.n = doc.n / doc.d', context: null, primaryKey: 'id', documents: ['{"id":1,"n":4,"d":2}', '{"id":2,"n":1,"d":0}', '{"id":3,"n":1,"d":1}'] })
  t.same(failing.outcomes, [{ kind: 'edited', json: '{"d":2,"id":1,"n":2}' }])
  t.same(failing.error, { index: 1, code: 'edit_documents_by_function_error', message: 'Document edition runtime error encountered while running the function: Division by zero: 1 / 0 (line 1, position 15)' })

  const tooMany = editChunk({ script: Array.from({ length: 31 }, (_, i) => `fn f${i}() {}`).join(' '), context: null, primaryKey: 'id', documents: ['{"id":1}'] })
  t.match(tooMany.error, { index: 0, code: 'edit_documents_by_function_error', message: /^Document edition runtime error encountered while compiling the function: Number of functions defined exceeds maximum limit/ })

  const looping = editChunk({ script: 'loop {}', context: null, primaryKey: 'id', documents: ['{"id":1}'] })
  t.equal(looping.error?.message, 'Document edition runtime error encountered while running the function: Too many operations (line 1, position 6)')

  const deep = editChunk({ script: 'doc.x = 1', context: null, primaryKey: 'id', documents: [`{"id":1,"d":${'['.repeat(20000)}${']'.repeat(20000)}}`] })
  t.equal(deep.error?.code, 'internal', 'a document too deep for the JavaScript stack fails cleanly')
})

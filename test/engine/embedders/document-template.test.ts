// Document templates: rendering (doc, fields, values as liquid-rust prints them), the default template's fast
// path against the interpreter, truncation, the dialect's tags and filters, and Meilisearch's messages.
import t from 'tap'
import { DocumentTemplate, checkDocumentTemplate, templateProblem, truncateUtf8 } from '../../../engine/embedders/index.js'
import { DEFAULT_DOCUMENT_TEMPLATE } from '../../../engine/settings/types.js'
import { ALLOWED_FILTERS } from '../../../engine/embedders/liquid-language.js'

const doc = {
  id: 1, title: 'Kefir', breed: { name: 'jack russell', kind: 'terrier' }, tags: ['good', 'dog'], age: 2.5, big: 1e21, tiny: 1e-7,
  nothing: null, empty: '', flag: true,
}

const render = (template: string, document: Record<string, unknown> = doc, maxBytes: number | null = null) =>
  DocumentTemplate.compile(template, maxBytes).render(document, { documentId: '1' })

t.test('doc fields, nested fields and values render as liquid-rust prints them', async (t) => {
  t.equal(render('{{doc.title}}: {{doc.breed.name}} ({{ doc.breed.kind }})'), 'Kefir: jack russell (terrier)')
  t.equal(render('{{doc.tags}}|{{doc.breed}}|{{doc.nothing}}|{{doc.flag}}|{{doc.age}}'), 'gooddog|namejack russellkindterrier||true|2.5')
  t.equal(render('{{doc.big}} {{doc.tiny}} {{doc.id}}'), '1000000000000000000000 0.0000001 1', 'numbers never in exponent notation')
  t.equal(render('{{ doc.title | upcase | append: "!" }} {{ doc.tags | join: ", " }} {{ doc.tags | size }}'), 'KEFIR! good, dog 2')
  t.equal(render('{% assign n = doc.age | times: 2 %}{{ n }}{% capture c %}[{{ doc.id }}]{% endcapture %}{{ c }}'), '5[1]')
  t.equal(render('{% for tag in doc.tags %}{% unless forloop.first %}, {% endunless %}{{ tag }}{% endfor %}'), 'good, dog')
  t.equal(render('{% case doc.breed.kind %}{% when "terrier" %}T{% else %}?{% endcase %}'), 'T')
  t.equal(render('{% raw %}{{ not rendered }}{% endraw %}'), '{{ not rendered }}')
  t.equal(render('{% if doc.missing %}a{% else %}b{% endif %}'), 'b', 'a missing field is falsy in a condition')
})

t.test('fields lists name, value and is_searchable', async (t) => {
  const template = DocumentTemplate.compile('{% for f in fields %}{{ f.name }}={{ f.value }}:{{ f.is_searchable }};{% endfor %}', null)
  const small = { id: 7, title: 'Echo', note: null }
  t.equal(template.render(small), 'id=7:true;title=Echo:true;note=:true;')
  t.equal(template.render(small, { isSearchable: (f) => f === 'title' }), 'id=7:false;title=Echo:true;note=:false;')
  // With the index's field order, the document's own fields come in that order; those it does not list follow.
  const names = DocumentTemplate.compile('{% for f in fields %}{{ f.name }};{% endfor %}', null)
  t.equal(names.render({ note: 1, id: 7, title: 'E' }, { fieldNames: ['id', 'title', 'missing', 'note'] }), 'id;title;note;')
  t.equal(names.render({ extra: 1, id: 7, more: 2 }, { fieldNames: ['id'] }), 'id;extra;more;')
  t.equal(names.render({ b: 1, a: 2 }), 'b;a;', 'without the index order: the document\'s')
  t.equal(render('{{ fields }}', { a: 1 }), 'nameavalue1is_searchabletrue')
})

t.test("the default template's fast path renders what the interpreter renders", async (t) => {
  const template = DocumentTemplate.compile(DEFAULT_DOCUMENT_TEMPLATE, null)
  const documents: Record<string, unknown>[] = [
    doc, { id: 'a', title: 'T', n: null }, {}, { nested: { a: [1, { b: 2 }] }, s: '' }, { 'weird key': 'x', ünï: 'cödé 🙂' }, { x: 1.5e300, y: -0 },
  ]
  for (const document of documents) {
    for (const isSearchable of [undefined, (f: string) => f.length % 2 === 0]) {
      t.equal(template.render(document, { isSearchable }), template.renderWithLiquid(document, { isSearchable }), JSON.stringify(document))
    }
    t.equal(template.render(document, { fieldNames: ['id', 'title', 'other'] }), template.renderWithLiquid(document, { fieldNames: ['id', 'title', 'other'] }))
  }
  t.equal(template.render({ id: 1, name: 'kefir', none: null }, { isSearchable: (f) => f !== 'id' }), 'name: kefir\n')
})

t.test('truncation cuts at documentTemplateMaxBytes on a character boundary', async (t) => {
  // Meilisearch's own truncation test (prompt/mod.rs).
  const s = 'インテル ザー ビーグル'
  t.equal(Buffer.byteLength(s), 32)
  const cases: [number, string][] = [[42, s], [32, s], [31, 'インテル ザー ビーグ'], [30, 'インテル ザー ビーグ'], [28, 'インテル ザー ビー'], [26, 'インテル ザー ビー'], [25, 'インテル ザー ビ'], [3, 'イ'], [2, '']]
  for (const [max, expected] of cases) t.equal(truncateUtf8(s, max), expected, `max ${max}`)
  t.equal(truncateUtf8('a🙂b', 4), 'a', 'a 4-byte character is never split')
  t.equal(render('{{ doc.title }} is a good dog', doc, 8), 'Kefir is')
  t.equal(DocumentTemplate.compile(undefined, 10).render({ name: 'kefir the dog' }), 'name: kefi')
})

t.test('a missing field fails the render with Meilisearch wording', async (t) => {
  t.throws(() => render('{{ doc.missing }}'), {
    code: 'invalid_document_fields',
    message: 'user error: missing field in document `1`: liquid: Unknown index\n  with:\n    variable=doc\n    requested index=missing\n    available indexes=id, title, breed, tags, age, big, tiny, nothing, empty, flag\n',
  })
  t.throws(() => render('{{ doc.breed.color }}'), { message: /variable=doc\.breed\n {4}requested index=color\n {4}available indexes=name, kind\n$/ })
  t.throws(() => render('{{ title }}'), { message: /liquid: Unknown variable\n {2}with:\n {4}requested variable=title\n {4}available variables=doc, fields\n$/ })
  t.throws(() => render('{% include "header" %}'), { code: 'invalid_document_fields', message: /Unknown partial-template/ })
})

t.test('runaway templates are stopped, not run to the end', async (t) => {
  const started = Date.now()
  t.throws(() => render('{% for i in (1..100000000) %}x{% endfor %}'), { code: 'invalid_document_fields', message: /limit exceeded/ })
  t.ok(Date.now() - started < 5_000)
})

t.test('the dialect: liquid-rust tags and filters only', async (t) => {
  for (const filter of ALLOWED_FILTERS) {
    if (['date', 'where', 'map'].includes(filter)) continue
    t.equal(templateProblem(`{{ doc.title | ${filter} }}`), null, filter)
  }
  for (const filter of ['json', 'raw', 'push', 'sum', 'base64_encode', 'slugify', 'nope']) {
    t.match(templateProblem(`{{ doc.title | ${filter} }}`), new RegExp(`^user error: cannot parse template: liquid: Unknown filter\\n  with:\\n    requested filter=${filter}\\n    available filters=abs, append, `), filter)
  }
  for (const tag of ['echo 1', 'liquid', 'render "x"', 'layout "x"', 'block b', '# comment']) {
    t.match(templateProblem(`{% ${tag} %}`), /= Unknown tag\.\n {2}with:\n {4}requested=.*\n {4}available tags=assign, break, continue, cycle, decrement, include, increment\n {4}available blocks=capture, case, comment, for, if, ifchanged, raw, tablerow, unless\n$/, tag)
  }
  t.equal(templateProblem('{% for f in fields %}{% ifchanged %}{{ f.is_searchable }}{% endifchanged %}{% endfor %}'), null)
  const ifchanged = DocumentTemplate.compile('{% for t in doc.tags %}{% ifchanged %}{{ t }}{% endifchanged %}{% endfor %}', null)
  t.equal(ifchanged.render({ tags: ['a', 'a', 'b', 'b', 'a'] }), 'aba')
})

t.test('settings-time check: Meilisearch messages for invalid templates', async (t) => {
  t.doesNotThrow(() => checkDocumentTemplate('default', DEFAULT_DOCUMENT_TEMPLATE))
  t.doesNotThrow(() => checkDocumentTemplate('default', ''))
  t.doesNotThrow(() => checkDocumentTemplate('default', '{{doc.actor.firstName}}: {{doc.actor.lastName}}'))
  t.throws(() => checkDocumentTemplate('default', '{% foo %}'), {
    code: 'invalid_settings_embedders',
    message: '`.embedders.default.documentTemplate`: Invalid template: user error: cannot parse template: liquid:  --> 1:4\n  |\n1 | {% foo %}\n  |    ^-^\n  |\n  = Unknown tag.\n  with:\n    requested=foo\n    available tags=assign, break, continue, cycle, decrement, include, increment\n    available blocks=capture, case, comment, for, if, ifchanged, raw, tablerow, unless\n.',
  })
  t.throws(() => checkDocumentTemplate('rest', '{{ doc.name'), {
    message: /^`\.embedders\.rest\.documentTemplate`: Invalid template: user error: cannot parse template: liquid: {2}--> 1:1\n {2}\|\n1 \| \{\{ doc\.name\n {2}\| \^---\n {2}\|\n {2}= .*\n\.$/,
  })
  t.throws(() => checkDocumentTemplate('x', '{{ doc.a | nope }}'), { message: /^`\.embedders\.x\.documentTemplate`: Invalid template: user error: cannot parse template: liquid: Unknown filter\n/ })
})

t.test('a template is parsed once and rendered fast', async (t) => {
  const template = DocumentTemplate.compile('{{ doc.title }} ({{ doc.breed.kind }}): {% for tag in doc.tags %}{{ tag }} {% endfor %}', 400)
  const fast = DocumentTemplate.compile(DEFAULT_DOCUMENT_TEMPLATE, 400)
  const n = 20_000
  let started = performance.now()
  for (let i = 0; i < n; i++) template.render(doc)
  const liquidPerDoc = (performance.now() - started) / n
  started = performance.now()
  for (let i = 0; i < n; i++) fast.render(doc)
  const defaultPerDoc = (performance.now() - started) / n
  t.comment(`custom template ${(liquidPerDoc * 1000).toFixed(1)} µs/doc, default template ${(defaultPerDoc * 1000).toFixed(1)} µs/doc`)
  t.ok(liquidPerDoc < 1, 'well under a millisecond per document')
})

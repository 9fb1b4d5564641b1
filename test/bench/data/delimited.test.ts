/** The bench's CSV/TSV reader: RFC 4180 quoting in CSV, literal TSV, typed and inferred columns. */
import t from 'tap'
import { parseDelimited, recordsToDocuments } from '../../../bench/data/delimited.js'

t.test('CSV: quoted fields hold delimiters, quotes and line breaks; CRLF ends records; empty lines are skipped', async (t) => {
  const rows = parseDelimited('id,title\r\n1,"a, ""quoted""\nline"\r\n\r\n2,plain\n', ',', true)
  t.same(rows, [['id', 'title'], ['1', 'a, "quoted"\nline'], ['2', 'plain']])
})

t.test('TSV: fields are taken literally, quotes included', async (t) => {
  t.same(parseDelimited('name\tsummary\r\nx\t"not, quoted"\n', '\t', false), [['name', 'summary'], ['x', '"not, quoted"']])
})

t.test('typed header cells are applied; untyped columns are numbers only when every value is one', async (t) => {
  const docs = recordsToDocuments([
    ['id', 'price:number', 'ok:boolean', 'downloads', 'version', 'note'],
    ['1', '2.5', 'true', '585', '0.0.1', ''],
    ['2', '3', 'false', '', '1.0.0', 'x'],
  ])
  t.same(docs, [
    { id: 1, price: 2.5, ok: true, downloads: 585, version: '0.0.1', note: null },
    { id: 2, price: 3, ok: false, downloads: null, version: '1.0.0', note: 'x' },
  ])
  t.same(recordsToDocuments([]), [], 'no header, no documents')
})

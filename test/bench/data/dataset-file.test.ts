/** Corpus files given with --dataset: the format from the name or the content, gzip from the magic bytes. */
import t from 'tap'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { loadDatasetFile } from '../../../bench/data/dataset-file.js'

t.test('NDJSON, JSON, CSV and TSV, gzipped or not', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'tessera-dataset-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  const write = (name: string, text: string, gzip = false) => { const p = join(dir, name); writeFileSync(p, gzip ? gzipSync(text) : text); return p }
  t.same(loadDatasetFile(write('a.ndjson', '{"id":1}\n\n{"id":2}\n')), { format: 'ndjson', gzip: false, documents: [{ id: 1 }, { id: 2 }] })
  t.same(loadDatasetFile(write('b.json.gz', '\ufeff[{"id":1}]', true)), { format: 'json', gzip: true, documents: [{ id: 1 }] })
  t.same(loadDatasetFile(write('c.tsv.gz', 'name\tdownloads\nx\t3\n', true)).documents, [{ name: 'x', downloads: 3 }])
  t.same(loadDatasetFile(write('d.csv', 'id,title\n1,"a,b"\n')).documents, [{ id: 1, title: 'a,b' }])
  const unnamed = loadDatasetFile(write('e.data', '{"x":1}\n'))
  t.equal(unnamed.format, 'ndjson', 'a name that says nothing: the content decides')
  t.throws(() => loadDatasetFile(write('f.json', '[1]')), /document 0 is not an object/)
})

/** The search scenario's corpus: ids added, searchable fields inferred or given, and how long its documents are. */
import t from 'tap'
import { rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { DEFAULT_SEARCH_OPTIONS } from '../../../../bench/scenarios/search/options.js'
import { loadDataset } from '../../../../bench/scenarios/search/dataset.js'
import { isLongCorpus } from '../../../../bench/scenarios/search/targets.js'
import type { SearchResult } from '../../../../bench/scenarios/search/types.js'
import { tempDir } from '../../../helpers/server.js'

const long = (meanSearchableWords: number) => isLongCorpus({ dataset: { meanSearchableWords } } as SearchResult)

t.test('a file of short documents: ids added, name and summary inferred, short', async (t) => {
  const dir = tempDir('tessera-dataset-')
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  const file = join(dir, 'packages.tsv')
  writeFileSync(file, 'name\tversion\tdownloads\tsummary\nleft-pad\t1.3.0\t900\tString left pad\nis-odd\t3.0.1\t12\tReturns true if the given number is odd\n')
  const { info, documents } = loadDataset({ ...DEFAULT_SEARCH_OPTIONS, dataset: file })
  t.same(documents[1], { id: 1, name: 'is-odd', version: '3.0.1', downloads: 12, summary: 'Returns true if the given number is odd' })
  t.same([info.source, info.format, info.idsAdded, info.searchableAttributes], ['file', 'tsv', true, ['name', 'summary']])
  t.equal(info.meanSearchableWords, (5 + 10) / 2)
  t.equal(long(info.meanSearchableWords), false)
  const given = loadDataset({ ...DEFAULT_SEARCH_OPTIONS, dataset: file, searchable: ['summary'] })
  t.same(given.info.searchableAttributes, ['summary'], 'a corpus\'s own fields, or --searchable, win over inference')
  t.equal(given.info.meanSearchableWords, (3 + 8) / 2)
})

t.test('the generated corpus is one of long documents', async (t) => {
  const { info } = loadDataset({ ...DEFAULT_SEARCH_OPTIONS, generatedDocuments: 300 })
  t.same([info.source, info.documents, info.searchableAttributes], ['generated', 300, ['title', 'description', 'tags']])
  t.ok(info.meanSearchableWords > 30, `${info.meanSearchableWords} words per document`)
  t.equal(long(info.meanSearchableWords), true)
  t.equal(long(19.9), false)
  t.equal(long(20), true)
})

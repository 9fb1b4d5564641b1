/** --corpus NAME: the built file and its searchable fields, or a message that says what to run. */
import t from 'tap'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { CORPUS_NAMES, resolveCorpus } from '../../../../bench/data/corpora/registry.js'

t.test('a built corpus, one not built, an unknown one', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'tessera-corpora-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  t.same(CORPUS_NAMES, ['gcide', 'manpages', 'spamassassin', 'npm'])
  t.throws(() => resolveCorpus('gcide', dir), { message: `corpus \`gcide\` is not built: ${join(dir, 'gcide.ndjson')} is missing (npm run corpora)` })
  writeFileSync(join(dir, 'gcide.ndjson'), '{"id":0}\n')
  t.same(resolveCorpus('gcide', dir), { name: 'gcide', path: join(dir, 'gcide.ndjson'), searchable: ['word', 'definition'] })
  t.throws(() => resolveCorpus('wiki', dir), /unknown corpus `wiki`: expected one of gcide, manpages, spamassassin, npm/)
})

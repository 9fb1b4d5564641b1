/** src/keys/index-pattern.ts: `IndexUidPattern` of `meilisearch-types/src/index_uid_pattern.rs`. */
import t from 'tap'
import { anyMatches, indexPatternMessage, matchesIndex } from '../../../src/keys/index-pattern.js'

t.test('matching', async (t) => {
  t.ok(matchesIndex('*', 'anything'))
  t.ok(matchesIndex('products', 'products'))
  t.notOk(matchesIndex('products', 'products_1'), 'no star: exact')
  t.ok(matchesIndex('products*', 'products'))
  t.ok(matchesIndex('products_*', 'products_1'))
  t.notOk(matchesIndex('products_*', 'products'), 'the prefix must be there whole')
  t.notOk(matchesIndex('prod*', 'sales'))
  t.ok(anyMatches(['sal*', 'prod*'], 'products'))
  t.notOk(anyMatches([], 'products'))
})

t.test('validation messages quote the part before the star', async (t) => {
  t.equal(indexPatternMessage('*'), null)
  t.equal(indexPatternMessage('products_*'), null)
  t.equal(indexPatternMessage('a-b_C9'), null)
  t.equal(indexPatternMessage('good doggo'), '`good doggo` is not a valid index uid pattern. Index uid patterns can be an integer or a string containing only alphanumeric characters, hyphens (-), underscores (_), and optionally end with a star (*).')
  t.match(indexPatternMessage('bad name*'), /^`bad name` is not a valid index uid pattern/)
  t.match(indexPatternMessage('**'), /^`\*` is not/)
  t.match(indexPatternMessage('mid*dle'), /^`mid\*dle` is not/)
  t.not(indexPatternMessage(''), null)
  t.not(indexPatternMessage('x'.repeat(401)), null)
})

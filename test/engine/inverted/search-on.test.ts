/** `attributesToSearchOn` entries (engine/inverted/extract.ts `searchOnCovers`), as restrict_searchable.rs uses them. */
import t from 'tap'
import { searchOnCovers } from '../../../engine/inverted/extract.js'

t.test('plain entries cover the field and what is nested under it', async (t) => {
  t.ok(searchOnCovers('*', 'anything.at.all'))
  t.ok(searchOnCovers('details', 'details.title'))
  t.ok(searchOnCovers('details.title', 'details.title'))
  t.notOk(searchOnCovers('details.title', 'details'))
  t.notOk(searchOnCovers('det', 'details.title'))
})

t.test('patterns: `*.title`, `details.*`, `*name*`, matched by the field or a parent', async (t) => {
  t.ok(searchOnCovers('*.title', 'details.title'))
  t.notOk(searchOnCovers('*.title', 'title'), '`*.title` needs a parent')
  t.ok(searchOnCovers('*.title', 'details.title.en'), 'a parent matches')
  t.ok(searchOnCovers('details.*', 'details.outfit.colors.primary'))
  t.notOk(searchOnCovers('details.*', 'details'))
  t.notOk(searchOnCovers('details.*', 'detailsx.a'))
  t.ok(searchOnCovers('*outfit*', 'details.outfit.has_cape'))
  t.notOk(searchOnCovers('unknown.*', 'details.title'))
  t.notOk(searchOnCovers('*.unknown', 'details.title'))
})

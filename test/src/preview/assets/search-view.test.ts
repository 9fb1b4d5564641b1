/** The parts of the search view that are plain functions: sort rules and facet filters. */
import t from 'tap'
import { pageModule } from './page-module.js'

const { sortRules } = await pageModule<{ sortRules(text: string): string[] }>('search-view.js')
const { facetFilter } = await pageModule<{ facetFilter(attribute: string, value: string): string }>('facets.js')

t.test('the sort box into sort rules', async (t) => {
  t.same(sortRules(''), [])
  t.same(sortRules(' year:desc , title:asc ,'), ['year:desc', 'title:asc'])
  t.same(sortRules('_geoPoint(48.8, 2.3):asc, rating:desc'), ['_geoPoint(48.8, 2.3):asc', 'rating:desc'], 'commas inside parentheses do not split')
})

t.test('a facet value as an exact filter', async (t) => {
  t.equal(facetFilter('genre', 'science fiction'), 'genre = "science fiction"')
  t.equal(facetFilter('year', '2008'), 'year = "2008"')
  t.equal(facetFilter('title', 'say "hi" \\ bye'), 'title = "say \\"hi\\" \\\\ bye"')
  t.equal(facetFilter('odd name', 'x'), '"odd name" = "x"')
})

/** `sortDocids`: the documents routes' sort, each criterion breaking the ties of the one before (milli `recursive_sort`). */
import t from 'tap'
import { sortDocids, type SortKey } from '../../../engine/search/sort.js'
import { MISSING_RANK } from '../../../engine/facets/index.js'

const key = (ranks: number[]): SortKey => ({ name: 'k', ranks: Int32Array.from(ranks), values: [] })

t.test('criteria in order, then internal id order; documents without a value last', async (t) => {
  const age = key([1, 0, 1, 0, MISSING_RANK])
  const email = key([2, 1, 0, 1, 0])
  t.same(sortDocids([0, 1, 2, 3, 4], [age, email]), [1, 3, 2, 0, 4])
  t.same(sortDocids([4, 3, 2, 1, 0], [age]), [1, 3, 0, 2, 4], 'ties keep internal id order whatever the input order')
  t.same(sortDocids([7, 2], [age]), [2, 7], 'a document beyond the ranks has no value')
  t.same(sortDocids([3, 1], []), [1, 3])
})

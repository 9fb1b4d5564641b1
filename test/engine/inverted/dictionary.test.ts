import t from 'tap'
import { Dictionary } from '../../../engine/inverted/dictionary.js'
// The reference the dictionary's walk must agree with: the plain optimal-string-alignment table of the error hints.
import { editDistance } from '../../../engine/errors/edit-distance.js'
import { seededRandom } from '../../helpers/random.js'

function prefixDistance(query: string, word: string): number {
  let best = Infinity
  for (let k = 0; k <= word.length; k++) best = Math.min(best, editDistance(query, word.slice(0, k)))
  return best
}

const rand = seededRandom(42).float
const word = (n: number) => Array.from({ length: n }, () => 'abcde'[Math.floor(rand() * 5)]).join('')

t.test('prefix ranges and merging keep the words sorted and unique', async (t) => {
  const d = new Dictionary(['banana', 'apple'])
  d.add(['cherry', 'apple', 'apricot'])
  t.same(d.withPrefix('ap'), ['apple', 'apricot'])
  t.same(d.withPrefix('b'), ['banana'])
  t.same(d.withPrefix('z'), [])
  t.equal(d.size, 4)
})

t.test('fuzzy lookups find exactly the words within the distance (random dictionaries)', async (t) => {
  for (let round = 0; round < 8; round++) {
    const words = Array.from({ length: 300 }, () => word(1 + Math.floor(rand() * 8)))
    const d = new Dictionary(words)
    const unique = [...new Set(words)].sort()
    for (let q = 0; q < 10; q++) {
      const query = word(2 + Math.floor(rand() * 6))
      for (const max of [1, 2]) {
        for (const prefix of [false, true]) {
          const got = d.fuzzy(query, max, { prefix }).map((m) => `${m.word}:${m.distance}`).sort()
          const want = unique
            .map((w) => [w, prefix ? prefixDistance(query, w) : editDistance(query, w)] as const)
            .filter(([w, dist]) => dist <= max && w !== query)
            .map(([w, dist]) => `${w}:${dist}`)
            .sort()
          if (JSON.stringify(got) !== JSON.stringify(want)) {
            t.same(got, want, `query ${query}, max ${max}, prefix ${prefix}`)
            return
          }
        }
      }
    }
  }
  t.pass('all lookups agree with the reference distance')
})

t.test('a transposition is one typo; sameFirst keeps the first letter', async (t) => {
  const d = new Dictionary(['hello', 'jello', 'hlelo', 'help'])
  t.same(d.fuzzy('hello', 1).map((m) => m.word).sort(), ['hlelo', 'jello'])
  t.same(d.fuzzy('hello', 1, { sameFirst: true }).map((m) => m.word), ['hlelo'])
  t.same(d.fuzzy('hel', 1, { prefix: true, sameFirst: true }).map((m) => m.word).sort(), ['hello', 'help', 'hlelo'])
})

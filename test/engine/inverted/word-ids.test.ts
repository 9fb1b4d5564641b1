import t from 'tap'
import { WordIds } from '../../../engine/inverted/word-ids.js'
import { seededRandom } from '../../helpers/random.js'

t.test('ids by word and by range of a longer string, through growth; a clone is independent', async (t) => {
  const random = seededRandom(7)
  const rand = () => random.float()
  const letters = 'abcdeéfgh中ij'
  const words = new Set<string>()
  while (words.size < 5000) words.add(Array.from({ length: 1 + Math.floor(rand() * 14) }, () => letters[Math.floor(rand() * letters.length)]).join(''))
  const list = [...words]
  const table = new WordIds()
  const model = new Map<string, number>()
  list.forEach((w, k) => {
    const id = 10_000 + 3 * k
    table.set(w, id)
    model.set(w, id)
  })
  table.set(list[0]!, 42)
  model.set(list[0]!, 42)
  t.equal(table.size, list.length, 'a word set twice is one entry')
  let wrong = 0
  for (const [w, id] of model) if (table.get(w) !== id) wrong++
  t.equal(wrong, 0, 'every word finds its id')
  // The words back to back: each found from its range, and no range that is not a word is found.
  const text = list.join('')
  let at = 0
  wrong = 0
  for (const w of list) {
    if (table.getRange(text, at, at + w.length) !== model.get(w)) wrong++
    at += w.length
  }
  t.equal(wrong, 0, 'every range finds its word')
  let strays = 0
  for (let k = 0; k < 2000; k++) {
    const from = Math.floor(rand() * (text.length - 20))
    const piece = text.slice(from, from + 1 + Math.floor(rand() * 15))
    if (table.getRange(text, from, from + piece.length) !== model.get(piece)) strays++
  }
  t.equal(strays, 0, 'random ranges agree with the model (found exactly when they are words)')
  t.equal(table.get('nope'), undefined)
  t.same([...table].slice(0, 2), [[list[0], 42], [list[1], 10_003]], 'entries in the order they were added')

  const copy = table.clone()
  copy.set('zzz-new', 1)
  copy.set(list[1]!, 2)
  t.equal(table.get('zzz-new'), undefined, 'the original does not see the clone\'s new word')
  t.equal(table.get(list[1]!), 10_003, 'nor its changed id')
  t.equal(copy.get(list[1]!), 2)
  t.equal(copy.size, table.size + 1)
})

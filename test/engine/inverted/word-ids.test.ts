import t from 'tap'
import { Packr } from 'msgpackr'
import { WordIds } from '../../../engine/inverted/word-ids.js'
import { wordList, type WordList } from '../../../engine/inverted/extract.js'
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

t.test('the empty word is found like any other', async (t) => {
  const table = new WordIds()
  table.set('', 5)
  table.set('a', 6)
  t.equal(table.get(''), 5)
  t.equal(table.getRange('xyz', 2, 2), 5)
  table.set('', 7)
  t.equal(table.size, 2, 'set again: the same entry')
})

t.test('a chunk\'s word list keeps its ends through msgpackr, lone surrogates included', async (t) => {
  const packr = new Packr({ moreTypes: true, useRecords: false })
  // Two halves that meet across a boundary make a pair and cross as they are; lone ones cross as U+FFFD.
  const words = ['ab', 'c\ud800', '\udc00d', 'long word '.repeat(10), 'f\ud800', 'x', '\udc00g', 'e']
  const sent = wordList(words)
  const got = packr.unpack(packr.pack(sent)) as WordList
  t.equal(got.text.length, got.ends[got.ends.length - 1], 'the text is as long as the ends say')
  const read: string[] = []
  for (let k = 0, from = 0; k < got.ends.length; from = got.ends[k++]!) read.push(got.text.slice(from, got.ends[k]))
  t.same(read, ['ab', 'c\ud800', '\udc00d', 'long word '.repeat(10), 'f\ufffd', 'x', '\ufffdg', 'e'], 'each word where it was, a lone surrogate as U+FFFD')
  // A short text crosses through msgpackr's own encoder, which writes a lone surrogate as three bytes.
  const short = packr.unpack(packr.pack(wordList(['f\ud800', 'x']))) as WordList
  t.equal(short.text, 'f\ufffdx')
  t.same([...short.ends], [2, 3])
})


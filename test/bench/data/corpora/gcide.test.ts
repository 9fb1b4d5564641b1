/** The GCIDE corpus from dictd files: base-64 offsets, one document per entry, its markup undone. */
import t from 'tap'
import { decodeAccents, dictdNumber, entryDocument, gcideEntries } from '../../../../bench/data/corpora/gcide.js'

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'
const encode = (n: number): string => (n < 64 ? B64[n]! : encode(Math.floor(n / 64)) + B64[n % 64]!)

t.test('dictd numbers are base 64, most significant digit first', async (t) => {
  t.equal(dictdNumber('A'), 0)
  t.equal(dictdNumber('Kj'), 10 * 64 + 35)
  t.equal(dictdNumber(encode(13_527_370)), 13_527_370)
  t.throws(() => dictdNumber('a-b'), /not a dictd number/)
})

t.test('accents, ligatures and unknown names', async (t) => {
  t.equal(decodeAccents(`a["e]rate, a[\\"e]rate, ['e]t['e], na[i^]ve, [ae]on, [AE]sop, 40[deg], [=a]`), 'aërate, aërate, été, naĭve, æon, Æsop, 40°, ā')
  t.equal(decodeAccents('l[add]w [Obs.]'), 'lw [Obs.]', 'an unknown lowercase name goes, a label stays')
})

const AERATE = `Aerate \\A"["e]r*ate\\, v. t. [imp. & p. p. {A["e]rated}.]
   1. To combine or charge with gas.
      [1913 Webster]

   2. To supply with common air; as, to a["e]rate soil.
      [1913 Webster]
`
const CORK = `Cork \\Cork\\ (k[^o]rk), n. [L. cortex.]
   The outer layer of the bark of the cork tree.
   [WordNet 1.5]
`

t.test('an entry: headword, part of speech, source, senses, and its definition without markup', async (t) => {
  t.same(entryDocument(7, 'aerate', AERATE), {
    id: 7, word: 'Aerate', pos: 'v. t.', source: 'Webster 1913',
    definition: 'v. t. [imp. & p. p. Aërated.] 1. To combine or charge with gas. 2. To supply with common air; as, to aërate soil.',
    senses: 2, words: 24, letter: 'a',
  })
  const cork = entryDocument(0, 'Cork', CORK)!
  t.equal(cork.definition, 'n. [L. cortex.] The outer layer of the bark of the cork tree.', 'the parenthesized pronunciation goes too')
  t.equal(cork.source, 'WordNet')
  t.equal(cork.senses, 1)
  t.equal(entryDocument(0, '0', '\n\n0 \\0\\ adj.\n   zero\n')!.letter, '#')
  t.equal(entryDocument(0, 'x', '   \n'), null, 'no text, no document')
})

t.test('the index: one document per entry however many headwords point at it, in the dictionary\'s order, notes left out', async (t) => {
  const info = '00-database-info\n   converted on a Tuesday\n'
  const dict = Buffer.from(info + CORK + AERATE)
  const at = (text: string) => dict.indexOf(text)
  const line = (word: string, text: string) => `${word}\t${encode(at(text))}\t${encode(Buffer.byteLength(text))}`
  const index = [line('00-database-info', info), line('Aerate', AERATE), line('Cork', CORK), line('Cork jackets', CORK), ''].join('\n')
  const docs = [...gcideEntries(index, dict)]
  t.same(docs.map((d) => [d.id, d.word]), [[0, 'Cork'], [1, 'Aerate']])
})

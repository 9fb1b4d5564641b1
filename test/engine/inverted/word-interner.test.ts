/**
 * The word numbering of extraction (engine/inverted/word-interner.ts): a word given as a string and the same word
 * given as a range of a text (read lowercased) get the same number; numbers follow first appearance; growing the
 * table keeps every number. And the tokenizer's ranges (plain ASCII words) give exactly the words its strings give.
 */
import t from 'tap'
import { WordInterner } from '../../../engine/inverted/word-interner.js'
import { Tokenizer, forEachAttributeWord, tokenizerConfig } from '../../../engine/tokenizer/index.js'

t.test('a word as a string and as a range of a text gets one number', async (t) => {
  const words = new WordInterner(4)
  const text = 'The QUICK brown Fox'
  t.equal(words.idOfRange(text, 0, 3), 0, 'The, first seen')
  t.equal(words.idOf('the'), 0, 'the same word as a string')
  t.equal(words.idOf('quick'), 1)
  t.equal(words.idOfRange(text, 4, 9), 1, 'QUICK read lowercased')
  t.equal(words.idOfRange(text, 10, 15), 2, 'brown, new')
  t.equal(words.idOfRange(text, 16, 19), 3)
  t.equal(words.idOfRange(text, 16, 18), 4, 'a prefix is a word of its own')
  t.same(words.words, ['the', 'quick', 'brown', 'fox', 'fo'])
  t.equal(words.idOf('thé'), 5, 'not ASCII: only as a string, never equal to an ASCII word')
  t.equal(words.idOf('The'), 6, 'a string is taken as given (the tokenizer lowercases it)')
})

t.test('numbers survive the table growing, whichever form asks', async (t) => {
  const words = new WordInterner(2)
  const all = Array.from({ length: 5000 }, (_, i) => `w${(i * 7919) % 100003}`)
  const first = all.map((w, i) => (i % 2 === 0 ? words.idOf(w) : words.idOfRange(` ${w.toUpperCase()} `, 1, w.length + 1)))
  t.same(first, all.map((_, i) => i), 'numbered in order of first appearance')
  const again = all.map((w, i) => (i % 2 === 0 ? words.idOfRange(w, 0, w.length) : words.idOf(w)))
  t.same(again, all.map((_, i) => i), 'each word found again under its number')
  t.equal(words.words.length, 5000)
})

t.test('the tokenizer gives plain ASCII words as ranges, the same words as its strings', async (t) => {
  const texts = [
    'Hello World. The fast-moving FOX, 3.14 and e-mail: admin@example.org',
    'Mixed ÉCOLE café Straße and ASCII Words\u0001with control\u007fcharacters',
    `${'Long'.repeat(70)} short ${'x'.repeat(250)} ${'y'.repeat(251)}`,
    'tabs\tand\u000bvertical\u000cfeeds   spaced',
    '東京は日本の首都です and English',
  ]
  for (const stopWords of [[], ['the', 'and']]) {
    const tokenizer = new Tokenizer(tokenizerConfig({ stopWords, separatorTokens: [], nonSeparatorTokens: [], dictionary: [] }))
    for (const text of texts) {
      const asStrings: string[] = []
      forEachAttributeWord(tokenizer, [text, 42], null, (w, p) => asStrings.push(`${w}@${p}`))
      const mixed: string[] = []
      let ranges = 0
      forEachAttributeWord(tokenizer, [text, 42], null, (w, p) => mixed.push(`${w}@${p}`), undefined, (s, from, to, p) => {
        ranges++
        mixed.push(`${s.slice(from, to).toLowerCase()}@${p}`)
      })
      t.same(mixed, asStrings, `${JSON.stringify(text.slice(0, 30))}, ${stopWords.length} stop words`)
      if (stopWords.length === 0) t.ok(ranges > 0, 'some words came as ranges')
      else t.equal(ranges, 0, 'with stop words to check, every word is a string')
    }
  }
})

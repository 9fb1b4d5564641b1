/**
 * Tokenizer tests. Every expectation comes from Meilisearch's tokenizer, charabia 0.9 (as milli builds it, with its
 * default features), or from milli's use of it; the comment on each says where from:
 * - [seg]      charabia/src/segmenter/mod.rs (script groups, Aho-Corasick leftmost-longest, maybe_number);
 * - [latin]    charabia/src/segmenter/latin/mod.rs test (no camelCase split: the feature is off by default);
 * - [tok]      charabia/src/tokenizer.rs docs and tests (separators(), words_dict());
 * - [sep]      charabia/src/separators.rs (DEFAULT_SEPARATORS, CONTEXT_SEPARATORS = hard);
 * - [classify] charabia/src/normalizer/classify.rs (classification after the non-lossy normalizers);
 * - [norm:x]   charabia/src/normalizer/x.rs tests;
 * - [milli]    milli update/new/extract/searchable/tokenize_document.rs (process_tokens, MAX_DISTANCE = 8,
 *              tokenize_field), milli/src/lib.rs (MAX_WORD_LENGTH = 250, MAX_POSITION_PER_ATTRIBUTE = 65536),
 *              milli index.rs allowed_separators, milli settings.rs update_stop_words (non-lossy normalization);
 * - [icu]      word boundaries of CJK text come from Intl.Segmenter (charabia uses jieba / lindera UniDic); the
 *              sentences used are ones where both agree.
 */
import t from 'tap'
import {
  DEFAULT_SEPARATORS, MAX_DISTANCE, Tokenizer, attributeWords, localesForField, matchAttributePattern, normalize, positions,
  type Token, type TokenizerConfig,
} from '../../../engine/tokenizer/index.js'

const config = (over: Partial<TokenizerConfig> = {}): TokenizerConfig => ({
  separatorTokens: [], nonSeparatorTokens: [], dictionary: [], stopWords: [], ...over,
})
const plain = new Tokenizer(config())

/** Normalized texts of all tokens. */
const lemmas = (text: string, tk = plain, locales?: string[]): string[] => tk.tokenize(text, locales).map((x) => x.text)
/** Normalized texts of the word tokens. */
const words = (text: string, tk = plain, locales?: string[]): string[] =>
  tk.tokenize(text, locales).filter((x) => x.kind === 'word').map((x) => x.text)
/** `kind:text` with H for hard separators. */
const shape = (text: string, tk = plain, locales?: string[]): string[] =>
  tk.tokenize(text, locales).map((x) => (x.kind === 'separator' ? (x.hard ? 'H' : 'S') : x.kind === 'stopWord' ? 'stop' : 'w') + ':' + x.text)
/** Word positions as `word@position`. */
const pos = (text: string, tk = plain): string[] => positions(tk.tokenize(text)).map((p) => `${p.word}@${p.position}`)

t.test('default separators', async (t) => {
  // [latin] the segmenter test sentence (with ' instead of ’; camelCase is not split by default)
  t.same(lemmas(`The quick ("brown") fox can't jump 32.3 feet, right? Brr, it's 29.3°F! kebab-case snake_case`), [
    'the', ' ', 'quick', ' ', '(', '"', 'brown', '"', ')', ' ', 'fox', ' ', 'can', "'", 't', ' ', 'jump', ' ', '32', '.',
    '3', ' ', 'feet', ', ', 'right', '?', ' ', 'brr', ', ', 'it', "'", 's', ' ', '29', '.', '3°f', '!', ' ', 'kebab', '-',
    'case', ' ', 'snake', '_', 'case',
  ])
  // [sep] the ASCII separators: whitespace, \0 and ! " # % & ' ( ) * + , - . / : ; ? @ [ \ ] _ ` { }
  for (const c of ['!', '"', '#', '%', '&', "'", '(', ')', '*', '+', ',', '-', '.', '/', ':', ';', '?', '@', '[', '\\', ']', '_', '`', '{', '}', '\t', '\n', '\r']) {
    t.same(words(`ab${c}cd`), ['ab', 'cd'], `${JSON.stringify(c)} separates`)
  }
  // [sep] $ < = > ^ | ~ are not separators (Sc, Sk and the Sm characters outside the list)
  for (const c of ['$', '<', '=', '>', '^', '|', '~']) t.same(words(`ab${c}cd`), [`ab${c}cd`], `${c} does not separate`)
  t.same(words('a$b a<b x^2 a|b ~foo a=b'), ['a$b', 'a<b', 'x^2', 'a|b', '~foo', 'a=b'])
  // [sep] Unicode punctuation (P*), spaces (Z*) and the listed math symbols separate
  t.same(words('alpha—beta«gamma»delta¿eps¡zeta·eta\u00A0theta\u3000iota×kappa±lambda∞mu'),
    ['alpha', 'beta', 'gamma', 'delta', 'eps', 'zeta', 'eta', 'theta', 'iota', 'kappa', 'lambda', 'mu'])
  // [classify] ≠ is in the list, but it is classified after NFKD (= + U+0338), which is not: it is the word "="
  // (the combining mark is then removed in a Latin group)
  t.same(words('a≠b'), ['a', '=', 'b'])
  // [sep] ∀ (U+2200) and ¬ are not in charabia's list
  t.same(words('a∀b a¬b'), ['a∀b', 'a¬b'])
  t.ok(DEFAULT_SEPARATORS.includes('. ') && DEFAULT_SEPARATORS.includes(', ') && !DEFAULT_SEPARATORS.includes('$'))
  t.ok(DEFAULT_SEPARATORS.length > 1000, 'about charabia’s 1,059 entries')
})

t.test('hard and soft separators', async (t) => {
  // [classify] " " " @ . are soft; ". " and 。 are hard; [sep] ", " ! ? ; ¿ ¡ 、 are hard, : is not
  t.same(shape('a b"c@d.e. f'), ['w:a', 'S: ', 'w:b', 'S:"', 'w:c', 'S:@', 'w:d', 'S:.', 'w:e', 'H:. ', 'w:f'])
  t.same(shape('a, b,c!d?e;f:g'), ['w:a', 'H:, ', 'w:b', 'S:,', 'w:c', 'H:!', 'w:d', 'H:?', 'w:e', 'H:;', 'w:f', 'S::', 'w:g'])
  t.same(shape('一、二。'), ['w:一', 'H:、', 'w:二', 'H:。'])
  // [seg] leftmost-longest: ". " wins over "." at the same place; a space before the comma does not prevent ", "
  t.same(shape('end.  x'), ['w:end', 'H:. ', 'S: ', 'w:x'])
  t.same(shape('a , b'), ['w:a', 'S: ', 'H:, ', 'w:b'])
  // [classify]+[norm:compatibility_decomposition] classification happens after NFKD: fullwidth ， is the soft ",",
  // ！ the hard "!", and … (NFKD "...") is not in the list, so it is the word "..."
  t.same(shape('x，y！z'), ['w:x', 'S:,', 'w:y', 'H:!', 'w:z'])
  t.same(shape('wait… what'), ['w:wait', 'w:...', 'S: ', 'w:what'])
  // [norm:control_char] \0 is removed before classification: an empty word, ignored by positions
  t.same(shape('a\0b'), ['w:a', 'w:', 'w:b'])
  t.same(pos('a\0b'), ['a@0', 'b@1'])
})

t.test('normalization', async (t) => {
  // [norm:lowercase] [norm:nonspacing_mark] accents are removed and case folded for Latin
  t.same(words('Crème Brûlée À LA CARTE naïve Ångström'), ['creme', 'brulee', 'a', 'la', 'carte', 'naive', 'angstrom'])
  // [norm:ae_oe_normalizer] œ æ; [norm:compatibility_decomposition] ligatures and fullwidth forms
  t.same(words('ŒUVRE Cæsar ﬁnance ﬂow Ｆｕｌｌ ①'), ['oeuvre', 'caesar', 'finance', 'flow', 'full', '1'])
  // [norm:turkish] İ → i̇ → i, ı → i; [norm:vietnamese] đ → d
  t.same(words('İstanbul ışık çalışma Đường'), ['istanbul', 'isik', 'calisma', 'duong'])
  // [norm:greek] final ς → σ, accents removed for Greek; uppercase Σ is lowercased char by char (σ)
  t.same(words('Αγαπητός ΟΔΟΣ'), ['αγαπητοσ', 'οδοσ'])
  // [norm:nonspacing_mark] marks are kept for Cyrillic: й stays decomposed (и + U+0306)
  t.same(words('Йод'), ['\u0438\u0306\u043E\u0434'])
  // [norm:nonspacing_mark] Thai tone marks are removed
  t.same(words('ง่าย'), ['งาย'])
  // [norm:arabic] ى → ي, أ → ا (hamza is a nonspacing mark after NFKD); [seg] the article ال is split off
  t.same(words('السلام عليكم، أتمنى'), ['ال', 'سلام', 'عليكم', 'اتمني'])
  // [norm:swedish_recomposition] only with the Swedish locale
  t.same(words('öpÅscålcäsÄÖs', plain, ['swe']), ['öpåscålcäsäös'])
  t.same(words('öpÅscålcäsÄÖs'), ['opascalcasaos'])
  // normalize() applies the same pipeline to one string without splitting it
  t.equal(normalize('Ｃrème Brûlée'), 'creme brulee')
  t.equal(normalize('ΟΔΟΣ'), 'οδοσ')
  t.equal(normalize('テキスト'), 'てきすと')
})

t.test('positions', async (t) => {
  // [milli] process_tokens: +1 after soft separators, +8 (MAX_DISTANCE) after a hard one
  t.equal(MAX_DISTANCE, 8)
  t.same(pos('hello world'), ['hello@0', 'world@1'])
  t.same(pos('hello. world'), ['hello@0', 'world@8'])
  t.same(pos('hello - / world'), ['hello@0', 'world@1'], 'several soft separators count once')
  t.same(pos('hello. - world'), ['hello@0', 'world@8'], 'a soft separator does not undo a hard one')
  t.same(pos('hello - , world'), ['hello@0', 'world@8'], 'a hard one after soft ones wins')
  t.same(pos('. , hello world'), ['hello@0', 'world@1'], 'leading separators are skipped')
  t.same(pos('https://www.meilisearch.com/docs'), ['https@0', 'www@1', 'meilisearch@2', 'com@3', 'docs@4'])
  t.same(positions(plain.tokenize('a b'), 17).map((p) => p.position), [17, 18], 'start offset')
})

t.test('stop words', async (t) => {
  const tk = new Tokenizer(config({ stopWords: ['the', 'of', 'café'] }))
  // [classify] a stop word is classified on its non-lossy form, before lowercasing; [milli] settings store stop
  // words with the non-lossy normalization, so matching is case-sensitive: "The" is a word
  t.same(shape('the cat of The', tk), ['stop:the', 'S: ', 'w:cat', 'S: ', 'stop:of', 'S: ', 'w:the'])
  // NFKD applies to both sides (é typed composed or decomposed)
  t.same(shape('cafe\u0301', tk), ['stop:cafe'])
  // [milli] stop words take a position but are not indexed
  t.same(pos('the cat of the year', tk), ['cat@1', 'year@4'])
  t.same(pos('the. cat', tk), ['cat@8'])
})

t.test('dictionary', async (t) => {
  // [tok] words_dict example
  const tk = new Tokenizer(config({ dictionary: ['J. R. R.', 'Dr.', 'J. K.'] }))
  t.same(tk.tokenize('J. R. R. Tolkien. J. K. Rowling. Dr. Seuss').map((x) => x.original),
    ['J. R. R.', ' ', 'Tolkien', '. ', 'J. K.', ' ', 'Rowling', '. ', 'Dr.', ' ', 'Seuss'])
  t.same(words('J. R. R. Tolkien', tk), ['j. r. r.', 'tolkien'])
  // entries win over separators when longer (leftmost-longest) and are matched on the raw text, case-sensitively
  const cs = new Tokenizer(config({ dictionary: ['C#', 'C++'] }))
  t.same(words('I like C# and C++ but not c#', cs), ['i', 'like', 'c#', 'and', 'c++', 'but', 'not', 'c'])
  t.same(words('I like C# and C++'), ['i', 'like', 'c', 'and', 'c'])
  // [seg] Aho-Corasick finds entries anywhere, even inside a word
  t.same(words('concatenate', new Tokenizer(config({ dictionary: ['cat'] }))), ['con', 'cat', 'enate'])
  // [tok] an entry that is also a stop word is a stop word
  t.same(shape('Dr. Who', new Tokenizer(config({ dictionary: ['Dr.'], stopWords: ['Dr.'] }))), ['stop:dr.', 'S: ', 'w:who'])
})

t.test('separatorTokens and nonSeparatorTokens', async (t) => {
  // [milli] allowed_separators = defaults + separatorTokens - nonSeparatorTokens; custom separators are soft
  // unless they are context separators [classify]
  const seps = new Tokenizer(config({ separatorTokens: ['|', '&amp;', 'xx'] }))
  t.same(shape('a|b&amp;c xx d', seps), ['w:a', 'S:|', 'w:b', 'S:&amp;', 'w:c', 'S: ', 'S:xx', 'S: ', 'w:d'])
  t.same(words('fooxxbar', seps), ['foo', 'bar'])
  const non = new Tokenizer(config({ nonSeparatorTokens: ['@', '#', '.'] }))
  t.same(words('john@doe.com loves C#', non), ['john@doe.com', 'loves', 'c#'])
  // removing "." keeps ". " (a separate entry)
  t.same(shape('pi is 3.14. Next', non), ['w:pi', 'S: ', 'w:is', 'S: ', 'w:3.14', 'H:. ', 'w:next'])
  t.same(words('3.14'), ['3', '14'])
  // both at once
  const both = new Tokenizer(config({ separatorTokens: ['|'], nonSeparatorTokens: ['-'] }))
  t.same(words('e-mail|fax', both), ['e-mail', 'fax'])
})

t.test('CJK', async (t) => {
  // [seg] a CJ run without kana is Chinese (whatlang), segmented by the Chinese segmenter [icu]
  t.same(words('我喜欢吃苹果'), ['我', '喜欢', '吃', '苹果'])
  // [seg] with kana it is Japanese [icu]; [norm:japanese] katakana becomes hiragana; [norm:japanese] (its test:
  // だめ → た + U+3099 + め) NFKD leaves voiced kana decomposed and CJ keeps its nonspacing marks
  t.same(words('私は寿司が好きです'), ['私', 'は', '寿司', 'か\u3099', '好き', 'て\u3099す'])
  t.same(words('テキスト'), ['てきすと'])
  // [norm:compatibility_decomposition] + [norm:japanese] halfwidth katakana: NFKD leaves the voiced mark U+3099
  // decomposed, and nonspacing marks are not removed for CJ
  t.same(words('ｶﾞｷﾞｸﾞｹﾞｺﾞ'), ['か\u3099き\u3099く\u3099け\u3099こ\u3099'])
  // wana_kana's long vowel rule: ー after a converted katakana becomes its vowel
  t.same(words('カー'), ['かあ'])
  // [seg] scripts form groups: Latin and CJ are segmented apart; separators between them stay separators
  t.same(words('iPhone手机'), ['iphone', '手机'])
  t.same(shape('Tokyo 東京'), ['w:tokyo', 'S: ', 'w:東京'])
  // a run of digits is never segmented (maybe_number); digits inside CJ text are split by the segmenter
  t.same(words('2024年3月'), ['2024', '年', '3', '月'])
  // [seg] locales: a single allowed language is taken as is; a non-CJ one leaves the CJ run unsegmented and
  // unconverted (no segmenter for (Cj, eng), Japanese normalizer only for jpn or undetected)
  t.same(words('東京タワー', plain, ['eng']), ['東京タワー'])
  t.same(words('我喜欢吃苹果', plain, ['eng']), ['我喜欢吃苹果'])
  // ISO-639-1 codes are accepted like ISO-639-3 ones
  t.same(words('我喜欢吃苹果', plain, ['zh']), ['我', '喜欢', '吃', '苹果'])
  t.same(words('我喜欢吃苹果', plain, ['cmn', 'eng']), ['我', '喜欢', '吃', '苹果'])
  // Japanese locale: the Japanese path even without kana (Chinese detection is overridden)
  t.same(words('東京', plain, ['jpn']), ['東京'])
  // the config's locales are the default; an explicit null means none
  const en = new Tokenizer(config({ locales: ['eng'] }))
  t.same(words('我喜欢吃苹果', en), ['我喜欢吃苹果'])
  t.same(en.tokenize('我喜欢吃苹果', null).filter((x) => x.kind === 'word').map((x) => x.text), ['我', '喜欢', '吃', '苹果'])
  // long runs are segmented in windows: same words as one Intl.Segmenter pass over the run [icu]
  const long = '我喜欢吃苹果今天天气很好北京大学'.repeat(400)
  const direct = [...new Intl.Segmenter('zh', { granularity: 'word' }).segment(long)].map((x) => x.segment)
  t.same(words(long), direct)
  t.same(words(long), direct, 'again, from the run cache')
  // [milli] positions in CJK text: +1 per segmented word
  t.same(pos('我喜欢吃苹果。好'), ['我@0', '喜欢@1', '吃@2', '苹果@3', '好@11'])
})

t.test('offsets', async (t) => {
  // [seg] tokens carry byte and char offsets into the original text; milli's _matchesPosition uses bytes
  const text = 'café 😀 naïve 東京'
  const toks = plain.tokenize(text)
  const buf = Buffer.from(text)
  for (const x of toks) {
    t.equal(buf.subarray(x.byteStart, x.byteEnd).toString(), x.original, `bytes of ${x.original}`)
    t.equal([...text].slice(x.charStart, x.charEnd).join(''), x.original, `chars of ${x.original}`)
  }
  const pick = (o: string): Pick<Token, 'byteStart' | 'byteEnd' | 'charStart' | 'charEnd'> => {
    const x = toks.find((y) => y.original === o)!
    return { byteStart: x.byteStart, byteEnd: x.byteEnd, charStart: x.charStart, charEnd: x.charEnd }
  }
  t.same(pick('café'), { byteStart: 0, byteEnd: 5, charStart: 0, charEnd: 4 })
  t.same(pick('😀'), { byteStart: 6, byteEnd: 10, charStart: 5, charEnd: 6 })
  t.same(pick('naïve'), { byteStart: 11, byteEnd: 17, charStart: 7, charEnd: 12 })
  t.same(pick('東京'), { byteStart: 18, byteEnd: 24, charStart: 13, charEnd: 15 })
  // decomposed input: offsets are those of the original, the text is normalized
  const d = plain.tokenize('cafe\u0301!')
  t.same(d.map((x) => [x.text, x.byteStart, x.byteEnd]), [['cafe', 0, 6], ['!', 6, 7]])
  // tokens cover the whole text
  t.equal(toks.map((x) => x.original).join(''), text)
})

t.test('numbers, symbols, emoji and edge cases', async (t) => {
  // [latin] numbers are split on . and , like anything else; [sep] + and - are separators
  t.same(words('3.14 1,000 -12 +7 1e-5'), ['3', '14', '1', '000', '12', '7', '1e', '5'])
  // $ is not a separator, ² decomposes to 2
  t.same(words('$100 x² 50%'), ['$100', 'x2', '50'])
  // emoji are not separators; U+FE0F (a nonspacing mark) is removed in a Latin group
  t.same(words('hello😀world I ❤️ NY'), ['hello😀world', 'i', '❤', 'ny'])
  // apostrophes separate: [latin] it's → it ' s
  t.same(words("don't l'avion l’avion"), ['don', 't', 'l', 'avion', 'l', 'avion'])
  t.same(words('C++ e-mail'), ['c', 'e', 'mail'])
  t.same(plain.tokenize(''), [])
  t.same(pos(' ,. '), [])
  t.same(words('ÀÉÎ'), ['aei'])
})

t.test('attribute words (milli tokenize_field)', async (t) => {
  // [milli] the tokenize_document test: "doggo.name" gets "doggo" (from {doggo: {name}}) then ["doggo", "catto"]
  t.same(attributeWords(plain, ['doggo', 'doggo', 'catto']), [
    { word: 'doggo', position: 0 }, { word: 'doggo', position: 8 }, { word: 'catto', position: 16 },
  ])
  // numbers and booleans are tokenized from their text
  t.same(attributeWords(plain, [10, true]), [{ word: '10', position: 0 }, { word: 'true', position: 8 }])
  // a value with no word still moves the next one by 8
  t.same(attributeWords(plain, ['a b', '', '...', 'c']).map((w) => `${w.word}@${w.position}`), ['a@0', 'b@1', 'c@25'])
  // words over 250 bytes are skipped but keep their position
  const long = 'x'.repeat(251)
  t.same(attributeWords(plain, [`a ${long} b`]).map((w) => `${w.word.length}@${w.position}`), ['1@0', '1@2'])
  t.same(attributeWords(plain, ['é'.repeat(125)]).length, 1, '250 bytes is kept')
  // positions stop at the limit (65,536 by default)
  t.same(attributeWords(plain, ['a b c d'], null, 2).map((w) => w.word), ['a', 'b'])
  // stop words
  const tk = new Tokenizer(config({ stopWords: ['the'] }))
  t.same(attributeWords(tk, ['the end', 'the. start']).map((w) => `${w.word}@${w.position}`), ['end@1', 'start@17'])
  // localized attributes: locales apply to strings
  t.same(attributeWords(plain, ['我喜欢吃苹果'], ['eng']).map((w) => w.word), ['我喜欢吃苹果'])
})

t.test('localized attributes', async (t) => {
  // [milli] tokenize_field takes the locales of the first rule whose pattern matches the field name
  // (attribute_patterns.rs match_pattern: *, *infix*, *suffix, prefix*, exact)
  const rules = [
    { attributePatterns: ['title_ja', '*_zh'], locales: ['jpn'] },
    { attributePatterns: ['desc.*'], locales: ['cmn'] },
    { attributePatterns: ['*'], locales: ['eng'] },
  ]
  t.same(localesForField(rules, 'title_ja'), ['jpn'])
  t.same(localesForField(rules, 'name_zh'), ['jpn'])
  t.same(localesForField(rules, 'desc.long'), ['cmn'])
  t.same(localesForField(rules, 'other'), ['eng'])
  t.equal(localesForField(null, 'other'), null)
  t.ok(matchAttributePattern('*tit*', 'subtitle'))
  t.notOk(matchAttributePattern('title', 'title.en'))
  t.same(attributeWords(plain, ['東京タワー'], localesForField(rules, 'other')).map((w) => w.word), ['東京タワー'])
})

/**
 * The tokenizer: Meilisearch's (charabia 0.9 as milli configures it), one for indexing and for queries.
 *
 * Pipeline, as charabia runs it (charabia/src/segmenter/mod.rs, tokenizer.rs, normalizer/*):
 *   1. The text is cut into script groups (script.ts): a letter of another script starts a group; digits, spaces,
 *      punctuation and symbols stay in the group they follow.
 *   2. In each group, separators and `dictionary` words are found leftmost-longest on the raw text. Each match is a
 *      token of its own; what lies between matches is handed to the group's segmenter: Chinese and Japanese (CJ
 *      script, language from `locales` or detected: any kana → Japanese, else Chinese), Thai, Khmer and Korean runs
 *      go through `Intl.Segmenter` (charabia uses jieba, lindera/UniDic, lindera/ko-dic and its own dictionaries, so
 *      word boundaries may differ); Arabic is split on word boundaries with the article ال split off; everything else
 *      (Latin, Cyrillic, Greek, …) is kept whole. A run made only of digits and ASCII punctuation is never segmented.
 *   3. Each token is normalized (normalize.ts) and classified on its non-lossy form: a stop word (exact, so
 *      case-sensitive: milli stores stop words with the same non-lossy normalization), else a separator if that form
 *      is in the separator list (hard when it is one of charabia's context separators), else a word. So `…` becomes
 *      the word `...` (NFKD), `，` the soft separator `,`, `\0` an empty word that is ignored.
 *
 * Positions (milli's `process_tokens`, update/new/extract/searchable/tokenize_document.rs): a word is 1 after the
 * previous word, or 8 (MAX_DISTANCE) after it when a hard separator came between; stop words take a position but are
 * not indexed; leading separators are ignored. In an attribute, each further value (array element) starts 8 after
 * the last indexed position; positions stop at 65,536 (MAX_POSITION_PER_ATTRIBUTE); words are trimmed and those
 * empty or longer than 250 bytes (MAX_WORD_LENGTH) are skipped.
 *
 * Settings (milli `Index::allowed_separators`): the separator list is the default list plus `separatorTokens`
 * minus `nonSeparatorTokens` (exact strings: removing "." keeps ". "); `dictionary` entries are extra patterns
 * matched on the raw text (case-sensitive, anywhere, even inside a word).
 *
 * Files: types.ts (limits, tokens, configuration), tokenizer.ts (the scanner), segmenters.ts (segmentation and
 * languages of groups), normalize.ts, script.ts, separators.ts, attribute-words.ts (milli's positions in attributes).
 */
import { BMP_SCRIPT, KANA_BIT, Script } from './script.js'
import { isAscii, lossy, nonLossy } from './normalize.js'
import { groupLang, parseLocales } from './segmenters.js'
import { Tokenizer } from './tokenizer.js'

export { DEFAULT_SEPARATORS, HARD_SEPARATORS } from './separators.js'
export { katakanaToHiragana } from './normalize.js'
export { matchAttributePattern } from '../settings/patterns.js'
export { MAX_DISTANCE, MAX_POSITION_PER_ATTRIBUTE, MAX_WORD_LENGTH, tokenizerConfig, type Token, type TokenKind, type TokenizerConfig, type WordPosition } from './types.js'
export { Tokenizer } from './tokenizer.js'
export { attributeWords, forEachAttributeWord, localesForField, positions, valueText, type FieldValue, type LocalizedRule } from './attribute-words.js'

const defaultTokenizer = new Tokenizer({ separatorTokens: [], nonSeparatorTokens: [], dictionary: [], stopWords: [] })

/**
 * Normalizes a word or phrase as the tokenizer normalizes a token (NFKD, control characters, then the lossy steps
 * of its script: lowercase, diacritics, kana…), without splitting it. The script is that of the text's first
 * letters; the language comes from `locales` or detection as for a group.
 */
export function normalize(word: string, locales?: readonly string[] | null): string {
  let script: number = Script.Other
  let hasKana = false
  for (let i = 0; i < word.length; i++) {
    const c = word.charCodeAt(i)
    let s = c >= 0xd800 && c <= 0xdfff ? Script.Other : BMP_SCRIPT[c]!
    if (s & KANA_BIT) { hasKana = true; s &= 0x7f }
    if (script === Script.Other && s !== Script.Other) script = s
  }
  const lang = groupLang(script, hasKana, parseLocales(locales))
  const ascii = isAscii(word)
  const nl = nonLossy(word, lang, ascii)
  return lossy(nl, script, lang, isAscii(nl))
}

/** The tokenizer with Meilisearch's default settings. */
export function defaultTokenizerInstance(): Tokenizer {
  return defaultTokenizer
}

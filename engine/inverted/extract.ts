/**
 * Extraction: the words of a document's searchable fields with their positions, as milli's searchable extractor
 * indexes them. Plain data in and out, so it runs in a worker (the `extractWords` job) or inline.
 *
 * - Nested objects are flattened to dotted field names (`a.b`); the leaf values of arrays are values of the same
 *   field, in document order; `null` values are skipped; `_vectors` is never searchable.
 * - A field is searchable when `searchableAttributes` is `["*"]`, or names it or one of its parents.
 * - Each field's words are positioned by `attributeWords` (the first value starts at 0, each further value 8 after).
 */
import { Tokenizer, forEachAttributeWord, localesForField, tokenizerConfig, type FieldValue, type LocalizedRule } from '../tokenizer/index.js'
import { grown } from '../util/typed.js'
import { WordInterner } from './word-interner.js'

/** What extraction depends on: the settings that change the indexed words (a change means a reindex). */
export interface ExtractionConfig {
  searchableAttributes: string[]
  stopWords: string[]
  separatorTokens: string[]
  nonSeparatorTokens: string[]
  dictionary: string[]
  localizedAttributes: LocalizedRule[] | null
}

export function extractionConfig(settings: ExtractionConfig): ExtractionConfig {
  const { searchableAttributes, stopWords, separatorTokens, nonSeparatorTokens, dictionary, localizedAttributes } = settings
  return { searchableAttributes, stopWords, separatorTokens, nonSeparatorTokens, dictionary, localizedAttributes }
}

/**
 * The words of a chunk of documents. Field names and words are listed once per chunk; each document is a run of
 * `[count, (wordIndex, fieldIndex << 16 | position) × count]` in `records`.
 */
export interface ExtractedChunk {
  fields: string[]
  words: WordList
  records: Uint32Array
}

/**
 * Words back to back in one string, word k ending at `ends[k]` (UTF-16 units): a chunk's words cross from a pool
 * thread as one string, and the indexing thread finds the known ones in place (word-ids.ts).
 */
export interface WordList {
  text: string
  ends: Uint32Array
}

/**
 * A list of `words`. A lone surrogate (a JSON string may escape one) becomes U+FFFD here, one unit for one: msgpackr
 * would otherwise turn it into three units on the way to the other thread and every later word's end would be off.
 * The same happens whether the list crosses threads or not.
 */
export function wordList(words: readonly string[]): WordList {
  const ends = new Uint32Array(words.length)
  let end = 0
  for (let k = 0; k < words.length; k++) ends[k] = end += words[k]!.length
  return { text: (words.join('') as WellFormable).toWellFormed(), ends }
}

/** `String.prototype.toWellFormed` (Node 20 has it; TypeScript's ES2023 library does not declare it). */
type WellFormable = string & { toWellFormed(): string }

type TokenizerSettings = Pick<ExtractionConfig, 'stopWords' | 'separatorTokens' | 'nonSeparatorTokens' | 'dictionary'>

const tokenizers = new Map<string, Tokenizer>()
/** By settings object: a search reuses the cached settings, so it skips building the key. */
const bySettings = new WeakMap<TokenizerSettings, Tokenizer>()

/** Tokenizers are cached by configuration (a worker builds each once). */
export function tokenizerFor(config: TokenizerSettings): Tokenizer {
  const known = bySettings.get(config)
  if (known) return known
  const key = JSON.stringify([config.stopWords, config.separatorTokens, config.nonSeparatorTokens, config.dictionary])
  let tokenizer = tokenizers.get(key)
  if (!tokenizer) {
    if (tokenizers.size > 64) tokenizers.clear()
    tokenizer = new Tokenizer(tokenizerConfig(config))
    tokenizers.set(key, tokenizer)
  }
  bySettings.set(config, tokenizer)
  return tokenizer
}

/** Whether an attribute list entry (`*`, a name, or a parent of nested fields) covers a dotted field name. */
export function coversField(entry: string, field: string): boolean {
  return entry === '*' || entry === field || (field.startsWith(entry) && field.charCodeAt(entry.length) === 46)
}

/**
 * Whether an `attributesToSearchOn` entry covers a field: as a searchable attribute does, or, for an entry with a
 * `*` at its start or end (`*.title`, `details.*`, `*name*`), when the field or one of its parents matches the
 * pattern (restrict_searchable.rs nested_search_on_title_with_prefix_wildcard, nested_search_with_suffix_wildcard).
 */
export function searchOnCovers(entry: string, field: string): boolean {
  if (entry === '*' || !entry.includes('*')) return coversField(entry, field)
  const starts = entry.startsWith('*')
  const ends = entry.endsWith('*')
  const core = entry.slice(starts ? 1 : 0, ends ? -1 : undefined)
  const matches = (name: string) => (starts && ends ? name.includes(core) : starts ? name.endsWith(core) : ends ? name.startsWith(core) : name === core)
  for (let at = field.length; at > 0; at = field.lastIndexOf('.', at - 1)) {
    if (matches(field.slice(0, at))) return true
  }
  return false
}

/** Whether a dotted field name is searchable under `searchableAttributes`. */
export function isSearchable(searchable: readonly string[], field: string): boolean {
  if (field === '_vectors' || field.startsWith('_vectors.')) return false
  return searchable.some((s) => coversField(s, field))
}

/** The leaf values of a document by dotted field name, in document order. */
export function flattenLeaves(doc: Record<string, unknown>, out = new Map<string, FieldValue[]>()): Map<string, FieldValue[]> {
  const walk = (value: unknown, path: string): void => {
    if (value === null || value === undefined) return
    if (Array.isArray(value)) {
      for (const item of value) walk(item, path)
      return
    }
    if (typeof value === 'object') {
      for (const key of Object.keys(value as object)) walk((value as Record<string, unknown>)[key], path === '' ? key : `${path}.${key}`)
      return
    }
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
      let list = out.get(path)
      if (!list) out.set(path, (list = []))
      list.push(value)
    }
  }
  walk(doc, '')
  return out
}

/** Extract the words of each document (in order). */
export function extractWords(docs: readonly Record<string, unknown>[], config: ExtractionConfig): ExtractedChunk {
  const tokenizer = tokenizerFor(config)
  const fields: string[] = []
  const fieldIndex = new Map<string, number>()
  const searchable = new Map<string, boolean>()
  const words = new WordInterner()
  let records = new Uint32Array(1024)
  let length = 0
  let fieldBits = 0
  const record = (w: number, position: number) => {
    if (length + 2 > records.length) records = grown(records, length + 2)
    records[length++] = w
    records[length++] = fieldBits | position
  }
  const emit = (word: string, position: number) => record(words.idOf(word), position)
  const emitRange = (text: string, start: number, end: number, position: number) => record(words.idOfRange(text, start, end), position)
  const leaves = new Map<string, FieldValue[]>()
  for (const doc of docs) {
    const countAt = length
    if (length === records.length) records = grown(records, length + 1)
    records[length++] = 0
    leaves.clear()
    for (const [field, values] of flattenLeaves(doc, leaves)) {
      let ok = searchable.get(field)
      if (ok === undefined) searchable.set(field, (ok = isSearchable(config.searchableAttributes, field)))
      if (!ok) continue
      let fid = fieldIndex.get(field)
      if (fid === undefined) {
        fid = fields.length
        fields.push(field)
        fieldIndex.set(field, fid)
      }
      fieldBits = fid << 16
      forEachAttributeWord(tokenizer, values, localesForField(config.localizedAttributes, field), emit, undefined, emitRange)
    }
    records[countAt] = (length - countAt - 1) / 2
  }
  return { fields, words: wordList(words.words), records: records.slice(0, length) }
}

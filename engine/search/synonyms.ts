/**
 * The `synonyms` setting as query planning reads it: keys and alternatives tokenized and normalized like the
 * query (so `NY` matches the query word `ny`), duplicates dropped, built once per settings object.
 */
import type { Settings } from '../settings/index.js'
import type { Tokenizer } from '../tokenizer/index.js'

export interface SynonymTable {
  /** Space-joined normalized words → alternatives (each a list of normalized words). */
  map: Map<string, string[][]>
}

const synonymCache = new WeakMap<Record<string, string[]>, SynonymTable>()

export function synonymTable(settings: Settings, tokenizer: Tokenizer): SynonymTable {
  let table = synonymCache.get(settings.synonyms)
  if (!table) {
    const map = new Map<string, string[][]>()
    const wordsOf = (text: string) => tokenizer.tokenize(text).filter((t) => t.kind !== 'separator').map((t) => t.text).filter((w) => w !== '')
    for (const [key, values] of Object.entries(settings.synonyms)) {
      const k = wordsOf(key).join(' ')
      if (k === '') continue
      const list = map.get(k) ?? []
      for (const v of values) {
        const words = wordsOf(v)
        if (words.length > 0 && !list.some((l) => l.join(' ') === words.join(' '))) list.push(words)
      }
      map.set(k, list)
    }
    synonymCache.set(settings.synonyms, (table = { map }))
  }
  return table
}

/**
 * The GCIDE corpus: the entries of the GNU Collaborative International Dictionary of English, as Debian's
 * `dict-gcide` installs it for dictd (`gcide.index`: one line per headword, `word<TAB>offset<TAB>length` in base 64;
 * `gcide.dict.dz`: the entries, gzip-compatible). Several headwords point at one entry (`Not … but` at `Not`): each
 * entry becomes one document, its definition long natural text (senses, quotations, etymologies).
 *
 * The text's ASCII markup is undone: accents (`[\"e]` → ë, `['e]` → é, `[ae]` → æ, …), cross-reference braces,
 * pronunciations (`\Ep"i*gram\`), and the source tags that end each paragraph (`[1913 Webster]`, `[WordNet 1.5]`).
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { gunzipSync } from 'node:zlib'

export interface GcideEntry {
  id: number
  /** The headword as the entry spells it (`Aerate`), or as the index does. */
  word: string
  /** The part of speech of the first sense, as abbreviated there (`n.`, `v. t.`, `a.`, `adv.`), or empty. */
  pos: string
  /** Where the entry comes from: `Webster 1913`, `WordNet` or `other`. */
  source: string
  /** The entry's text after its first line. */
  definition: string
  /** Numbered senses (at least 1). */
  senses: number
  /** Words in the definition. */
  words: number
  /** The headword's first letter, lowercased (`#` for a digit or a sign). */
  letter: string
}

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'

/** A dictd index number: base 64, most significant digit first. */
export function dictdNumber(text: string): number {
  let n = 0
  for (const c of text) {
    const d = BASE64.indexOf(c)
    if (d < 0) throw new Error(`not a dictd number: \`${text}\``)
    n = n * 64 + d
  }
  return n
}

const COMBINING: Record<string, string> = {
  '"': '\u0308', '\\"': '\u0308', "'": '\u0301', '`': '\u0300', '^': '\u0302', '~': '\u0303', '=': '\u0304', '-': '\u0304',
  '.': '\u0307', ',': '\u0327', '*': '\u030a',
}
const NAMED: Record<string, string> = {
  ae: 'æ', AE: 'Æ', oe: 'œ', OE: 'Œ', eth: 'ð', thorn: 'þ', deg: '°', sect: '§', imac: 'ī', aum: 'ä', ng: 'ŋ', root: '√',
}

/** GCIDE's ASCII accents as Unicode (NFC); unknown lowercase names in brackets are dropped, other brackets kept. */
export function decodeAccents(text: string): string {
  return text
    .replace(/\[(\\?"|'|`|\^|~|=|-|\.|,|\*)([A-Za-z])\]/g, (_, mark: string, letter: string) => letter + COMBINING[mark]!)
    .replace(/\[([A-Za-z])\^\]/g, (_, letter: string) => letter + '\u0306')
    .replace(/\[([A-Za-z]{2,5})\^?\]/g, (whole, name: string) => NAMED[name] ?? (/^[a-z]+$/.test(name) ? '' : whole))
    .normalize('NFC')
}

const SOURCE_TAG = /\[(?:1913 Webster|Webster 1913[^\]]*|WordNet[^\]]*|PJC|Century Dict\.[^\]]*)\]/g

/** One entry's text as a document (null for the database's own notes, or an entry with no text). */
export function entryDocument(id: number, indexWord: string, raw: string): GcideEntry | null {
  const lines = raw.replace(/^\s*\n/, '').split('\n')
  const first = lines[0] ?? ''
  // `Word \pro*nun"ci*a`tion\ (alternative), pos. [etymology] …`
  const m = /^(.+?)\s*\\[^\\]*\\\s*(?:\([^)]*\))?\s*,?\s*(.*)$/.exec(first)
  const word = decodeAccents(m ? m[1]! : indexWord).trim()
  const pos = m ? (/^((?:[a-z]{1,6}\.\s*)+)/.exec(m[2]!)?.[1]?.trim() ?? '') : ''
  const rest = [m ? m[2]! : first, ...lines.slice(1)].join('\n')
  const source = raw.includes('[1913 Webster]') || raw.includes('[Webster 1913') ? 'Webster 1913' : raw.includes('[WordNet') ? 'WordNet' : 'other'
  const senses = Math.max(1, lines.filter((l) => /^\s{2,}\d+\.\s/.test(l)).length)
  const definition = decodeAccents(rest.replace(SOURCE_TAG, ' ').replace(/\\[^\\\n]{0,80}\\/g, ' ').replace(/[{}]/g, ''))
    .replace(/\s+/g, ' ')
    .trim()
  if (word === '' || definition === '') return null
  const letter = word[0]!.toLowerCase()
  return { id, word, pos, source, definition, senses, words: definition.split(' ').length, letter: /\p{L}/u.test(letter) ? letter : '#' }
}

/** Every entry of a dictd index and its (gunzipped) dictionary text, once each, in the dictionary's order. */
export function* gcideEntries(index: string, dict: Buffer): Generator<GcideEntry> {
  const entries = new Map<number, { word: string; length: number }>()
  for (const line of index.split('\n')) {
    const [word, offset, length] = line.split('\t')
    if (!word || offset === undefined || length === undefined || word.startsWith('00-')) continue
    const start = dictdNumber(offset)
    if (!entries.has(start)) entries.set(start, { word, length: dictdNumber(length) })
  }
  let id = 0
  for (const [start, { word, length }] of [...entries].sort((a, b) => a[0] - b[0])) {
    const doc = entryDocument(id, word, dict.subarray(start, start + length).toString('utf8'))
    if (doc) { yield doc; id++ }
  }
}

/** Debian's dict-gcide files. */
export const GCIDE_DIR = '/usr/share/dictd'

/** The corpus from `dir/gcide.index` and `dir/gcide.dict.dz`. */
export function readGcide(dir = GCIDE_DIR): Generator<GcideEntry> {
  const index = readFileSync(join(dir, 'gcide.index'), 'utf8')
  const dict = gunzipSync(readFileSync(join(dir, 'gcide.dict.dz')))
  return gcideEntries(index, dict)
}

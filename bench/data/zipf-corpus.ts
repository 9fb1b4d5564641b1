/**
 * A seeded generator of realistic documents for the bench scenarios: the same count and seed always give the same
 * documents, byte for byte, on every machine.
 *
 * Why not uniform-corpus.ts's documents: those draw every word uniformly from ~500 English words, so every word
 * matches about the same share of the corpus and no query is rare or broad. Real text follows Zipf's law: a few words are
 * in nearly every document, most are in a handful. Search cost depends on exactly that (how many documents a
 * word's postings hold, how many derivations a typo reaches), so this generator draws its words from a vocabulary
 * with Zipf-distributed frequencies:
 *
 * - the vocabulary: 5,000 pseudo-words built from syllables (deterministic for the seed), in rank order, drawn
 *   with Zipf exponent 1; the 300 most frequent have two syllables (mostly 5–8 letters, so most allow a typo),
 *   the tail two to four (up to ~15 letters). Rank 0 is 11 % of all words and in 99 % of the documents, rank 10
 *   in about 36 %, rank 100 in 5 %, rank 1000 in 0.5 % and the last ranks in 0.1 % (200 documents of 200,000);
 *   `vocabulary(seed)` gives the ranks, to build queries;
 * - `title`: 3–8 words, capitalized; `description`: 20–60 words in sentences (commas, periods);
 * - `brand`: Zipf over 1,000 pseudo-names; `category`: Zipf over 40 names; `tags`: 1–5 distinct of 60, Zipf;
 * - `price` (log-normal around 40, cents), `rating` (1.0–5.0, most near 4–5), `year` (1990–2025, most recent);
 * - `seller: {country (ISO code, Zipf over 60), rating}`, `published` (90 % true);
 * - with `vectorDimensions > 0`, `_vectors: {default: number[]}` (unit length): a per-category direction plus
 *   noise, so nearest neighbours share a category more often than chance. Vectors come from their own random
 *   stream: the other fields are the same with or without them.
 */
import { mulberry32, normal, zipf } from './random.js'

export interface GenerateOptions {
  count: number
  seed: number
  /** 0 or absent: no `_vectors`. */
  vectorDimensions?: number
}

/** The fields to make searchable: the text ones. */
export const GENERATED_SEARCHABLE = ['title', 'description', 'tags']

const VOCABULARY_SIZE = 5000
/** The ranks below this are two-syllable words (short, frequent words, as in natural language). */
const SHORT_RANKS = 300
const WORD_ZIPF = 1.0

// Weighted by repetition: mostly one letter each, so words are 4–9 letters long.
const ONSETS = ['b', 'c', 'd', 'f', 'g', 'h', 'j', 'k', 'l', 'm', 'n', 'p', 'r', 's', 't', 'v', 'w', 'z', 'b', 'd', 'l', 'm', 'n', 'p', 'r', 's', 't', 'br', 'cr', 'dr', 'fl', 'gr', 'pl', 'st', 'tr', 'ch', 'sh', 'th']
const VOWELS = ['a', 'e', 'i', 'o', 'u', 'a', 'e', 'i', 'o', 'a', 'e', 'o', 'y', 'ai', 'ea', 'ou']
const CODAS = ['', '', '', '', '', '', '', 'n', 'r', 's', 'l', 'm', 't', 'n', 'r', 's', 'nd', 'st', 'x', 'rk']

const CATEGORIES = [
  'electronics', 'books', 'clothing', 'shoes', 'kitchen', 'garden', 'toys', 'sports', 'beauty', 'health',
  'automotive', 'tools', 'music', 'movies', 'games', 'office', 'pets', 'baby', 'jewelry', 'watches',
  'furniture', 'lighting', 'bedding', 'bath', 'outdoor', 'camping', 'cycling', 'fitness', 'grocery', 'beverages',
  'crafts', 'stationery', 'luggage', 'phones', 'computers', 'cameras', 'audio', 'software', 'appliances', 'decor',
]

const TAGS = (
  'new sale eco premium classic outdoor indoor kids kitchen garden office travel sport audio video gaming vintage ' +
  'handmade organic wireless portable compact limited bestseller gift bundle refurbished imported local seasonal ' +
  'waterproof lightweight durable smart digital manual electric solar recycled vegan natural modern retro luxury ' +
  'budget professional beginner family pocket oversized slim heavy soft quiet fast rugged foldable adjustable ' +
  'rechargeable'
).split(' ')

const COUNTRIES = [
  'US', 'DE', 'CN', 'GB', 'FR', 'JP', 'IT', 'ES', 'CA', 'NL', 'PL', 'SE', 'KR', 'IN', 'BR', 'AU', 'BE', 'CH',
  'AT', 'DK', 'NO', 'FI', 'IE', 'PT', 'CZ', 'MX', 'TR', 'TW', 'VN', 'TH', 'ID', 'MY', 'SG', 'HK', 'NZ', 'ZA',
  'AR', 'CL', 'CO', 'PE', 'IL', 'AE', 'SA', 'EG', 'MA', 'NG', 'KE', 'UA', 'RO', 'HU', 'GR', 'BG', 'HR', 'SK',
  'SI', 'LT', 'LV', 'EE', 'IS', 'LU',
]

const pick = <T>(items: readonly T[], rand: () => number): T => items[Math.floor(rand() * items.length)]!

function syllable(rand: () => number): string {
  return pick(ONSETS, rand) + pick(VOWELS, rand) + pick(CODAS, rand)
}

/** `size` distinct pseudo-words, the first `short` of them two syllables long, the rest two to four. */
function pseudoWords(rand: () => number, size: number, short: number, taken: Set<string> = new Set()): string[] {
  const out: string[] = []
  while (out.length < size) {
    const r = rand()
    const syllables = out.length < short ? 2 : r < 0.55 ? 2 : r < 0.95 ? 3 : 4
    let word = ''
    for (let i = 0; i < syllables; i++) word += syllable(rand)
    if (word.length < 4 || taken.has(word)) continue
    taken.add(word)
    out.push(word)
  }
  return out
}

const vocabularies = new Map<number, string[]>()

/** The vocabulary of `seed` in rank order (0 = the most frequent word). The same array for the same seed. */
export function vocabulary(seed: number): string[] {
  let words = vocabularies.get(seed)
  if (!words) {
    words = pseudoWords(mulberry32((seed ^ 0x0b0cab1e) >>> 0), VOCABULARY_SIZE, SHORT_RANKS)
    vocabularies.set(seed, words)
  }
  return words
}

const capitalize = (w: string) => w.charAt(0).toUpperCase() + w.slice(1)
const round = (x: number, digits: number) => Math.round(x * 10 ** digits) / 10 ** digits
const clamp = (x: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, x))

/** The documents with ids `0 .. count-1`. */
export function* generateCorpus(o: GenerateOptions): Generator<Record<string, unknown>> {
  const words = vocabulary(o.seed)
  const rand = mulberry32(o.seed >>> 0)
  const word = zipf(words.length, WORD_ZIPF, rand)
  const brands = pseudoWords(mulberry32((o.seed ^ 0xb4a9d5) >>> 0), 1000, 0, new Set(words)).map(capitalize)
  const brand = zipf(brands.length, 1.1, rand)
  const category = zipf(CATEGORIES.length, 0.8, rand)
  const tag = zipf(TAGS.length, 1.0, rand)
  const country = zipf(COUNTRIES.length, 1.0, rand)
  const int = (lo: number, hi: number) => lo + Math.floor(rand() * (hi - lo + 1))

  const dims = Math.max(0, Math.floor(o.vectorDimensions ?? 0))
  const vrand = mulberry32((o.seed ^ 0x9e3779b9) >>> 0)
  const centers = dims > 0 ? CATEGORIES.map(() => Array.from({ length: dims }, () => normal(vrand))) : []

  for (let id = 0; id < o.count; id++) {
    const title: string[] = []
    for (let i = int(3, 8); i > 0; i--) title.push(words[word()]!)
    title[0] = capitalize(title[0]!)

    // Sentences of 5–15 words; a comma after one word in twelve.
    const n = int(20, 60)
    let description = ''
    let sentence = 0
    let sentenceLength = int(5, 15)
    for (let i = 0; i < n; i++) {
      let w = words[word()]!
      if (sentence === 0) w = capitalize(w)
      sentence++
      const last = i === n - 1
      if (last || sentence === sentenceLength) {
        w += '.'
        sentence = 0
        sentenceLength = int(5, 15)
      } else if (rand() < 1 / 12) {
        w += ','
      }
      description += (i === 0 ? '' : ' ') + w
    }

    const tags: string[] = []
    for (let i = int(1, 5); i > 0; i--) {
      const t = TAGS[tag()]!
      if (!tags.includes(t)) tags.push(t)
    }
    const cat = category()
    const doc: Record<string, unknown> = {
      id,
      title: title.join(' '),
      description,
      brand: brands[brand()]!,
      category: CATEGORIES[cat]!,
      price: round(clamp(Math.exp(Math.log(40) + normal(rand)), 0.99, 9999.99), 2),
      rating: round(clamp(5 - Math.abs(normal(rand)) * 0.9, 1, 5), 1),
      year: clamp(2025 - Math.floor(Math.abs(normal(rand)) * 9), 1990, 2025),
      tags,
      seller: { country: COUNTRIES[country()]!, rating: round(clamp(4.6 - Math.abs(normal(rand)) * 0.7, 1, 5), 1) },
      published: rand() < 0.9,
    }
    if (dims > 0) {
      const center = centers[cat]!
      const v = new Array<number>(dims)
      let norm = 0
      for (let i = 0; i < dims; i++) {
        const x = center[i]! + 0.8 * normal(vrand)
        v[i] = x
        norm += x * x
      }
      norm = Math.sqrt(norm) || 1
      for (let i = 0; i < dims; i++) v[i] = round(v[i]! / norm, 6)
      doc._vectors = { default: v }
    }
    yield doc
  }
}

/** The whole corpus as one NDJSON payload (one document per line, a final newline). */
export function corpusNdjson(o: GenerateOptions): Buffer {
  const lines: string[] = []
  for (const doc of generateCorpus(o)) lines.push(JSON.stringify(doc))
  return Buffer.from(lines.length > 0 ? lines.join('\n') + '\n' : '', 'utf8')
}

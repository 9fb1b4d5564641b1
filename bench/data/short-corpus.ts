/**
 * Short generated documents, shaped like a package registry's entries (the npm corpus: a name, a version, a monthly
 * download count, a one-line summary), for the ingestion shape of many small documents: indexing cost there is per
 * document, not per word. Words come from zipf-corpus.ts's vocabulary, so their frequencies look natural; the same
 * count and seed give the same documents on every machine.
 */
import { mulberry32, normal, zipf } from './random.js'
import { vocabulary } from './zipf-corpus.js'

export interface ShortDocument {
  id: number
  /** 1–3 words joined by `-`. */
  name: string
  version: string
  /** Log-normal around 200, at least 1. */
  downloads: number
  /** 3–15 words. */
  summary: string
}

export const SHORT_SEED = 0x5407

/** The documents with ids `0 .. count-1`. */
export function* generateShortDocuments(count: number, seed = SHORT_SEED): Generator<ShortDocument> {
  const words = vocabulary(seed)
  const rand = mulberry32((seed ^ 0x51a7) >>> 0)
  const word = zipf(words.length, 1.0, rand)
  const int = (lo: number, hi: number) => lo + Math.floor(rand() * (hi - lo + 1))
  for (let id = 0; id < count; id++) {
    const name: string[] = []
    for (let i = int(1, 3); i > 0; i--) name.push(words[word()]!)
    const summary: string[] = []
    for (let i = int(3, 15); i > 0; i--) summary.push(words[word()]!)
    yield {
      id,
      name: name.join('-'),
      version: `${int(0, 5)}.${int(0, 20)}.${int(0, 30)}`,
      downloads: Math.max(1, Math.round(Math.exp(Math.log(200) + 2 * normal(rand)))),
      summary: summary.join(' '),
    }
  }
}

/** The fields a default index searches in these documents (every one but the id), for a peer to index the same. */
export const SHORT_FIELDS = ['name', 'version', 'downloads', 'summary']

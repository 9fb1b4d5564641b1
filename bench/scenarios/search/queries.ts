/**
 * The search scenario's query mix: deterministic for a seed, drawn from the corpus's own searchable text, so that
 * every query finds its source document (typo and prefix queries included, in an engine with typo tolerance).
 */
import { mulberry32 } from '../../data/random.js'
import type { BenchQuery, QueryKind } from './types.js'

type Doc = Record<string, unknown>

export const QUERY_KINDS: QueryKind[] = ['plain', 'typo', 'prefix']

/** A record with one value per kind of query. */
export const byKind = <T>(f: (k: QueryKind) => T): Record<QueryKind, T> => ({ plain: f('plain'), typo: f('typo'), prefix: f('prefix') })

export const WORD = /[\p{L}\p{N}]+/gu

/** The searchable text of a field: a string, or the strings of an array (other values have none). */
export function textOf(value: unknown): string {
  if (typeof value === 'string') return value
  if (Array.isArray(value)) return value.filter((v) => typeof v === 'string').join(' ')
  return ''
}

/** One edit on a word of ≥ 5 letters, never on its first letter: a substitution or an adjacent transposition. */
function typo(word: string, rand: () => number): string {
  const chars = [...word]
  if (rand() < 0.5) {
    for (let attempt = 0; attempt < 10; attempt++) {
      const i = 1 + Math.floor(rand() * (chars.length - 2))
      if (chars[i] === chars[i + 1]) continue
      ;[chars[i], chars[i + 1]] = [chars[i + 1]!, chars[i]!]
      return chars.join('')
    }
  }
  const i = 1 + Math.floor(rand() * (chars.length - 1))
  const alphabet = 'abcdefghijklmnopqrstuvwxyz'
  let c = chars[i]!
  while (c === chars[i]) c = alphabet[Math.floor(rand() * alphabet.length)]!
  chars[i] = c
  return chars.join('')
}

/**
 * A deterministic mix of `count` queries: 1–3 consecutive words (30 / 40 / 30 %) of a random document's searchable
 * text, lowercased; of every 5 queries, 3 as is, 1 with one typo in a word of ≥ 5 letters, 1 with the last word cut to
 * a 3–5-letter prefix (a query that cannot take its modification is drawn again from another document).
 */
export function buildQueryMix(docs: Doc[], searchable: string[], count: number, seed: number): BenchQuery[] {
  const rand = mulberry32(seed)
  const pick = <T>(list: readonly T[]) => list[Math.floor(rand() * list.length)]!
  const queries: BenchQuery[] = []
  let attempts = 0
  const r = rand()
  let words = r < 0.3 ? 1 : r < 0.7 ? 2 : 3
  while (queries.length < count && attempts < count * 200) {
    attempts++
    const slot = queries.length % 5
    const kind: QueryKind = slot === 1 ? 'typo' : slot === 3 ? 'prefix' : 'plain'
    const doc = pick(docs)
    const tokens = (textOf(doc[pick(searchable)]).toLowerCase().match(WORD) ?? []).filter((t) => t.length >= 2)
    if (tokens.length < words) continue
    const start = Math.floor(rand() * (tokens.length - words + 1))
    const chosen = tokens.slice(start, start + words)
    const source = chosen.join(' ')
    if (kind === 'typo') {
      const candidates = chosen.map((w, i) => [w, i] as const).filter(([w]) => /^\p{L}{5,}$/u.test(w))
      if (candidates.length === 0) continue
      const [w, i] = pick(candidates)
      chosen[i] = typo(w, rand)
    } else if (kind === 'prefix') {
      const last = [...chosen[chosen.length - 1]!]
      const length = 3 + Math.floor(rand() * 3)
      if (last.length <= length) continue
      chosen[chosen.length - 1] = last.slice(0, length).join('')
    }
    const q = chosen.join(' ')
    queries.push({ q, kind, words, source })
    const next = rand()
    words = next < 0.3 ? 1 : next < 0.7 ? 2 : 3
  }
  if (queries.length < count) throw new Error(`could only draw ${queries.length} of ${count} queries from the corpus`)
  return queries
}

/**
 * The search peers as one small interface each: add documents (their searchable fields only), search a query
 * (the 20 best results, counted). Each peer configured for the closest it comes to what Tessera does.
 */
import { join } from 'node:path'
import { requirePeer, type PeerName } from './peers.js'

type Doc = Record<string, unknown>
interface Engine {
  add(docs: Doc[]): Promise<void> | void
  search(q: string): Promise<number> | number
}

const text = (v: unknown): string => (Array.isArray(v) ? v.map(text).join(' ') : v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v))

export async function engineFor(peer: PeerName, fields: string[], primaryKey: string, scratch: string): Promise<Engine> {
  switch (peer) {
    case 'flexsearch': {
      const { default: FlexSearch } = await import('flexsearch')
      // Forward tokenization: prefixes match, as Tessera's last query word does. No typo tolerance.
      const index = new (FlexSearch as unknown as { Document: new (o: unknown) => { add(d: Doc): void; search(q: string, o: unknown): { result: unknown[] }[] } }).Document({
        document: { id: primaryKey, index: fields }, tokenize: 'forward', cache: false,
      })
      return {
        add: (docs) => { for (const d of docs) index.add(d) },
        search: (q) => {
          const seen = new Set<unknown>()
          for (const field of index.search(q, { limit: 20 })) for (const id of field.result) if (seen.size < 20) seen.add(id)
          return seen.size
        },
      }
    }
    case 'minisearch': {
      const { default: MiniSearch } = await import('minisearch')
      const ms = new MiniSearch<Doc>({ fields, idField: primaryKey, storeFields: [], extractField: (d, f) => text(d[f]) })
      return {
        add: (docs) => ms.addAll(docs),
        // Prefix and fuzzy matching (edit distance up to 20 % of the word), its closest to typo tolerance.
        search: (q) => Math.min(20, ms.search(q, { prefix: true, fuzzy: 0.2 }).length),
      }
    }
    case 'orama': {
      const { create, insertMultiple, search } = await import('@orama/orama')
      const schema = Object.fromEntries(fields.map((f) => [f, 'string'])) as Record<string, 'string'>
      const db = create({ schema })
      return {
        add: async (docs) => { await insertMultiple(db, docs.map((d) => Object.fromEntries(fields.map((f) => [f, text(d[f])]))), 1000) },
        search: async (q) => (await search(db, { term: q, limit: 20, tolerance: 1 })).hits.length,
      }
    }
    case 'sqlite-fts5': {
      const Database = requirePeer('better-sqlite3') as typeof import('better-sqlite3')
      // A file on disk, in WAL mode: persistent, as Tessera is. Prefix indexes for 2–3 letters.
      const db = new Database(join(scratch, 'fts5.db'))
      db.pragma('journal_mode = WAL')
      db.pragma('synchronous = NORMAL')
      const cols = fields.map((_, i) => `f${i}`)
      db.exec(`CREATE VIRTUAL TABLE docs USING fts5(${cols.join(', ')}, tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3')`)
      const insert = db.prepare(`INSERT INTO docs (${cols.join(', ')}) VALUES (${cols.map(() => '?').join(', ')})`)
      const insertAll = db.transaction((docs: Doc[]) => { for (const d of docs) insert.run(...fields.map((f) => text(d[f]))) })
      const query = db.prepare('SELECT rowid FROM docs WHERE docs MATCH ? ORDER BY rank LIMIT 20')
      return {
        add: (docs) => insertAll(docs),
        // Every word must match (FTS5's implicit AND); the last one as a prefix. No typo tolerance.
        search: (q) => {
          const words = q.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []
          if (words.length === 0) return 0
          return query.all(words.map((w, i) => `"${w}"${i === words.length - 1 ? '*' : ''}`).join(' ')).length
        },
      }
    }
  }
}

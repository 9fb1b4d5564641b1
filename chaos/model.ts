/**
 * The crash storm's model of what a client was promised: the write operations it sent (each with the index
 * state it leads to when it succeeds) and the indexes they build. The server's task statuses say which operations
 * succeeded; replaying those in task-uid order must give exactly what the server holds.
 *
 * Each workload client owns its own indexes (one, or the pair it swaps), so the operations on an index come from
 * one client, at most one of them in flight when the server is killed: an unacknowledged task the server kept can
 * be told apart without guessing.
 */

export type Doc = Record<string, string | number>

export interface IndexState {
  /** External id (as a string) → document as stored. */
  docs: Map<string, Doc>
  searchable: string[]
  filterable: string[]
  exists: boolean
}

export type Format = 'json' | 'ndjson' | 'csv'

/** A write request of the workload, as sent. */
export type Operation =
  | { kind: 'add'; index: string; format: Format; docs: Doc[]; replace: boolean }
  | { kind: 'deleteIds'; index: string; ids: string[] }
  | { kind: 'deleteFilter'; index: string; below: number }
  | { kind: 'settings'; index: string; searchable: string[]; filterable: string[] }
  | { kind: 'deleteIndex'; index: string }
  | { kind: 'swap'; indexes: [string, string] }
  | { kind: 'cancel'; index: string }

/** The task type Meilisearch gives each operation. */
export function taskType(op: Operation): string {
  switch (op.kind) {
    case 'add': return 'documentAdditionOrUpdate'
    case 'deleteIds': return 'documentDeletion'
    case 'deleteFilter': return 'documentDeletion'
    case 'settings': return 'settingsUpdate'
    case 'deleteIndex': return 'indexDeletion'
    case 'swap': return 'indexSwap'
    case 'cancel': return 'taskCancelation'
  }
}

export function emptyIndex(): IndexState {
  return { docs: new Map(), searchable: ['*'], filterable: [], exists: false }
}

export function cloneIndex(s: IndexState): IndexState {
  return { docs: new Map(s.docs), searchable: [...s.searchable], filterable: [...s.filterable], exists: s.exists }
}

/** Apply a succeeded operation to the model. */
export function apply(state: Map<string, IndexState>, op: Operation): void {
  const get = (uid: string) => {
    let s = state.get(uid)
    if (!s) state.set(uid, (s = emptyIndex()))
    return s
  }
  switch (op.kind) {
    case 'add': {
      const s = get(op.index)
      s.exists = true
      for (const doc of op.docs) {
        const id = String(doc.id)
        const old = s.docs.get(id)
        s.docs.set(id, op.replace || !old ? { ...doc } : { ...old, ...doc })
      }
      return
    }
    case 'deleteIds': {
      const s = get(op.index)
      for (const id of op.ids) s.docs.delete(id)
      return
    }
    case 'deleteFilter': {
      const s = get(op.index)
      for (const [id, doc] of s.docs) if (typeof doc.n === 'number' && doc.n < op.below) s.docs.delete(id)
      return
    }
    case 'settings': {
      const s = get(op.index)
      s.exists = true
      s.searchable = [...op.searchable]
      s.filterable = [...op.filterable]
      return
    }
    case 'deleteIndex':
      state.set(op.index, emptyIndex())
      return
    case 'swap': {
      const [a, b] = op.indexes
      const sa = get(a)
      const sb = get(b)
      state.set(a, sb)
      state.set(b, sa)
      return
    }
    case 'cancel':
      return
  }
}

/** A canonical text of an index's documents, for comparing the server's and the model's. */
export function docsKey(docs: Iterable<Doc>): string {
  const rows = [...docs].map((d) => JSON.stringify(Object.keys(d).sort().map((k) => [k, d[k]])))
  return rows.sort().join('\n')
}

/** Words of the titles and bodies: no word is a prefix of, or one or two typos from, another. */
export const VOCABULARY = ['amber', 'cobalt', 'crimson', 'indigo', 'magenta', 'ochre', 'scarlet', 'turquoise', 'vermilion', 'zaffre']
/** The word the fixed search looks for. */
export const PROBE_WORD = 'indigo'

/** Documents of the model matching PROBE_WORD in a searchable field. */
export function probeCount(s: IndexState): number {
  const fields = s.searchable.includes('*') ? null : s.searchable
  let n = 0
  for (const doc of s.docs.values()) {
    const hit = Object.entries(doc).some(([k, v]) => (fields === null || fields.includes(k)) && typeof v === 'string' && v.split(' ').includes(PROBE_WORD))
    if (hit) n++
  }
  return n
}

/** The model's facet counts of `tag`. */
export function tagCounts(s: IndexState): Record<string, number> {
  const out: Record<string, number> = {}
  for (const doc of s.docs.values()) if (typeof doc.tag === 'string') out[doc.tag] = (out[doc.tag] ?? 0) + 1
  return out
}

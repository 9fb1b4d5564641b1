/** Shaping documents for output: `fields` projection with dot notation, and `_vectors` only on request. */
import type { Document } from '../payload/documents.js'

/** Whether `field` is selected by a pattern list (`*` selects all; `a` selects `a` and everything under it). */
function selected(field: string, patterns: string[]): boolean {
  return patterns.some((p) => p === '*' || p === field || field.startsWith(p + '.') || (p.endsWith('*') && field.startsWith(p.slice(0, -1))))
}

/**
 * Keep the fields named by `fields` (null: all). A nested path `a.b` keeps only `b` inside `a`, for objects and
 * arrays of objects, as Meilisearch's `fields` does.
 */
export function project(doc: Document, fields: string[] | null): Document {
  if (fields === null) return doc
  return projectObject(doc, fields, '') as Document
}

function projectObject(obj: Record<string, unknown>, fields: string[], prefix: string): Record<string, unknown> | undefined {
  const out: Record<string, unknown> = {}
  let any = false
  for (const [key, value] of Object.entries(obj)) {
    const path = prefix + key
    if (selected(path, fields)) { out[key] = value; any = true; continue }
    // A deeper field is asked for: descend.
    if (!fields.some((f) => f.startsWith(path + '.'))) continue
    const inner = projectValue(value, fields, path + '.')
    if (inner !== undefined) { out[key] = inner; any = true }
  }
  return any || prefix === '' ? out : undefined
}

function projectValue(value: unknown, fields: string[], prefix: string): unknown {
  if (Array.isArray(value)) {
    const items = value.map((v) => projectValue(v, fields, prefix)).filter((v) => v !== undefined)
    return items.length > 0 ? items : undefined
  }
  if (value !== null && typeof value === 'object') return projectObject(value as Record<string, unknown>, fields, prefix)
  return undefined
}

/**
 * `_vectors` as returned with `retrieveVectors=true`: every entry as `{embeddings: [[...]], regenerate}`; without
 * it, `_vectors` is left out.
 */
export function withVectors(doc: Document, retrieveVectors: boolean): Document {
  if (!('_vectors' in doc)) return doc
  const { _vectors, ...rest } = doc
  if (!retrieveVectors) return rest
  const normalized: Record<string, unknown> = {}
  for (const [name, entry] of Object.entries((_vectors ?? {}) as Record<string, unknown>)) {
    if (entry === null) continue
    if (Array.isArray(entry)) normalized[name] = { embeddings: asMatrix(entry), regenerate: false }
    else {
      const e = entry as { embeddings?: unknown; regenerate: boolean }
      normalized[name] = { embeddings: e.embeddings == null ? [] : asMatrix(e.embeddings as unknown[]), regenerate: e.regenerate }
    }
  }
  return { ...rest, _vectors: normalized }
}

function asMatrix(embeddings: unknown[]): unknown[] {
  return embeddings.length > 0 && !Array.isArray(embeddings[0]) ? [embeddings] : embeddings
}

/**
 * Dotted paths into documents as Meilisearch's `permissive-json-pointer` crate reads them (`select_values`,
 * `map_leaf_values`, `contained_in`): `a.b` reaches into objects and arrays alike, a selector covers the paths
 * under it.
 */
import { isObject, type JsonObject } from '../json/value.js'

/** `contained_in`: `selector` is `key` or a path under it (`a.b` is contained in `a`; `a` is not in `a.b`). */
export function containedIn(selector: string, key: string): boolean {
  if (selector === key) return true
  return selector.startsWith(key) && selector.length > key.length + 1 && selector[key.length] === '.'
}

/** `select_values`: a new document with only the selected fields (dotted paths reach into objects and arrays). */
export function selectValues(document: JsonObject, selectors: Iterable<string>): JsonObject {
  return createValue(document, new Set(selectors))
}

function createValue(value: JsonObject, selectors: Set<string>): JsonObject {
  const out: JsonObject = {}
  for (const [key, v] of Object.entries(value)) {
    if (selectors.has(key)) {
      out[key] = v
      if (!key.includes('.')) {
        selectors.delete(key)
        continue
      }
    }
    const sub = new Set<string>()
    for (const s of selectors) if (containedIn(s, key) && s !== key) sub.add(s.slice(key.length + 1))
    if (sub.size === 0) continue
    if (Array.isArray(v)) out[key] = createArray(v, sub)
    else if (isObject(v)) out[key] = createValue(v, sub)
  }
  return out
}

function createArray(array: unknown[], selectors: Set<string>): unknown[] {
  const out: unknown[] = []
  for (const v of array) {
    if (Array.isArray(v)) out.push(createArray(v, selectors))
    else if (isObject(v)) {
      const o = createValue(v, new Set(selectors))
      if (Object.keys(o).length > 0) out.push(o)
    }
  }
  return out
}

/** `map_leaf_values`: calls `mapper(dottedKey, arrayIndices, value)` on every selected leaf; replaces it by the result. */
export function mapLeafValues(document: JsonObject, selectors: readonly string[] | null, mapper: (key: string, arrayIndices: readonly number[], value: unknown) => unknown): void {
  mapInObject(document, selectors, '', [], mapper)
}

function mapInObject(object: JsonObject, selectors: readonly string[] | null, baseKey: string, indices: readonly number[], mapper: (key: string, arrayIndices: readonly number[], value: unknown) => unknown): void {
  for (const key of Object.keys(object)) {
    const path = baseKey === '' ? key : `${baseKey}.${key}`
    if (selectors !== null && !selectors.some((s) => containedIn(s, path) || containedIn(path, s))) continue
    const v = object[key]
    if (Array.isArray(v)) mapInArray(v, selectors, path, indices, mapper)
    else if (isObject(v)) mapInObject(v, selectors, path, indices, mapper)
    else object[key] = mapper(path, indices, v)
  }
}

function mapInArray(array: unknown[], selectors: readonly string[] | null, baseKey: string, base: readonly number[], mapper: (key: string, arrayIndices: readonly number[], value: unknown) => unknown): void {
  for (let i = 0; i < array.length; i++) {
    const indices = [...base, i]
    const v = array[i]
    if (Array.isArray(v)) mapInArray(v, selectors, baseKey, indices, mapper)
    else if (isObject(v)) mapInObject(v, selectors, baseKey, indices, mapper)
    else array[i] = mapper(baseKey, indices, v)
  }
}

/** Every field path of a document in first-seen order (objects inside arrays included): an index's field-id order. */

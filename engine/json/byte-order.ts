/**
 * Byte-wise UTF-8 order: the order of Meilisearch's `BTreeSet`/`BTreeMap`, in which it serializes settings lists
 * and maps (and so the order clients see).
 */
import { setKey } from './value.js'

export function compareBytes(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'))
}

/** Sorted, deduplicated (a BTreeSet). */
export function sortedSet(values: readonly string[]): string[] {
  return [...new Set(values)].sort(compareBytes)
}

/** A copy with keys in byte order (a BTreeMap). */
export function sortedMap<T>(obj: Record<string, T>): Record<string, T> {
  const out: Record<string, T> = {}
  for (const key of Object.keys(obj).sort(compareBytes)) setKey(out, key, obj[key] as T)
  return out
}

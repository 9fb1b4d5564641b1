/**
 * JSON values as the engine handles them (documents, settings, request bodies): one definition of what an object
 * is, and the copy, comparison and safe-assignment the engine needs on them.
 */

/** A JSON object: not null, not an array. */
export type JsonObject = Record<string, unknown>

/** A plain JSON object (not null, not an array). */
export function isObject(value: unknown): value is JsonObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
}

/** Define a key safely (user-chosen keys such as `__proto__` stay ordinary properties). */
export function setKey<T>(obj: Record<string, T>, key: string, value: T): void {
  Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true })
}

/** Structural equality of JSON values; keys holding `undefined` count as absent. */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((v, i) => deepEqual(v, b[i]))
  if (isObject(a) && isObject(b)) {
    const ka = Object.keys(a).filter((k) => a[k] !== undefined)
    const kb = Object.keys(b).filter((k) => b[k] !== undefined)
    return ka.length === kb.length && ka.every((k) => Object.prototype.hasOwnProperty.call(b, k) && deepEqual(a[k], b[k]))
  }
  return false
}

/** A deep copy. */
export function clone<T>(value: T): T {
  return value === undefined ? value : structuredClone(value)
}

/**
 * Run-time limits and their enforcement: operations, call depth, variables, and the sizes of strings, arrays
 * and maps (counted over nested values, as Rhai's `calc_data_sizes` does; strings nested in containers are
 * counted in UTF-16 units, equal to Rhai's bytes for ASCII text).
 *
 * Beyond Rhai's limits, each run also has a work budget: built-ins whose cost grows with the data they touch
 * (searching a long string, sorting, deep copies, size checks) charge it, so a script that stays under the
 * operation limit by repeating one expensive step still stops in bounded time, with "Too many operations".
 */
import { NO_POSITION, runtime, systemError, type Position } from './errors.js'
import { utf8Length, type Value } from './values.js'

export interface RunLimits {
  /** Operations per run (Meilisearch: 1,000,000 per document). */
  maxOperations: number
  /** Nested script function calls (Meilisearch: 1,000). */
  maxCallLevels: number
  /** Variables in scope (Meilisearch: 1,000). */
  maxVariables: number
  /** Bytes of UTF-8 in one string (Meilisearch: 1 GiB). */
  maxStringSize: number
  /** Elements of one array, nested arrays included (Meilisearch: 10,000). */
  maxArraySize: number
  /** Properties of one map, nested maps included (Meilisearch: 10,000). */
  maxMapSize: number
  /** Units of data-proportional work per run (characters scanned, items copied or compared). */
  maxWork: number
}

/** Meilisearch's `update_by_function.rs` engine settings, unchanged. */
export const MEILISEARCH_LIMITS: RunLimits = Object.freeze({
  maxOperations: 1_000_000,
  maxCallLevels: 1000,
  maxVariables: 1000,
  maxStringSize: 1024 * 1024 * 1024,
  maxArraySize: 10_000,
  maxMapSize: 10_000,
  maxWork: 200_000_000,
})

/**
 * Tessera's defaults: Meilisearch's, except strings are capped at 16 MiB — a 1 GiB string is more than a
 * JavaScript string may hold, and a worker building one would exhaust memory before Rhai's check fired.
 */
export const DEFAULT_LIMITS: RunLimits = Object.freeze({ ...MEILISEARCH_LIMITS, maxStringSize: 16 * 1024 * 1024 })

/** Counters of one run. */
export class Budget {
  operations = 0
  work = 0
  level = 0

  constructor(readonly limits: RunLimits) {}

  /** One Rhai operation (a statement, an expression, a loop turn, a call), at `pos`. */
  tick(pos: Position = NO_POSITION): void {
    if (++this.operations > this.limits.maxOperations) throw systemError(runtime.tooManyOperations(), pos)
  }

  /** Data-proportional work, in units (characters, items). */
  charge(units: number): void {
    this.work += units
    if (this.work > this.limits.maxWork) throw systemError(runtime.tooManyOperations())
  }

  /** Raise Rhai's "... too large" when a value (with everything nested in it) exceeds a size limit. */
  checkSize(value: Value): void {
    if (typeof value === 'string') {
      if (value.length * 3 > this.limits.maxStringSize && utf8Length(value) > this.limits.maxStringSize) {
        throw systemError(runtime.dataTooLarge('Length of string'))
      }
      return
    }
    if (!Array.isArray(value) && !(value instanceof Map)) return
    const sizes = { arrays: 0, maps: 0, strings: 0, visited: 0 }
    measure(value, sizes, this.limits)
    this.charge(sizes.visited)
  }
}

function measure(value: Value, sizes: { arrays: number; maps: number; strings: number; visited: number }, limits: RunLimits): void {
  const items = Array.isArray(value) ? value : value instanceof Map ? value.values() : null
  if (items === null) return
  for (const item of items) {
    sizes.visited++
    if (Array.isArray(value)) {
      if (++sizes.arrays > limits.maxArraySize) throw systemError(runtime.dataTooLarge('Size of array/BLOB'))
    } else if (++sizes.maps > limits.maxMapSize) {
      throw systemError(runtime.dataTooLarge('Size of object map'))
    }
    if (typeof item === 'string') {
      sizes.strings += item.length
      if (sizes.strings > limits.maxStringSize) throw systemError(runtime.dataTooLarge('Length of string'))
    } else if (Array.isArray(item) || item instanceof Map) {
      measure(item, sizes, limits)
    }
  }
}

/**
 * JSON and Rhai values, as Meilisearch converts them through serde: a JSON number is an INT when it is whole
 * and within i64, a FLOAT otherwise; `null` is `()`; objects become maps. Back to JSON, maps are written in
 * Rhai's key order (as Meilisearch writes an edited document), whole floats keep a `.0` (serde_json's float
 * form), non-finite floats become `null`, characters become one-character strings and function pointers their
 * names.
 */
import { display } from './format.js'
import { FnPtr, INT_MAX, INT_MIN, RChar, sortedKeys, type RMap, type Value } from './values.js'

/** A parsed JSON value (from `JSON.parse`) as a Rhai value. */
export function fromJson(json: unknown): Value {
  if (json === null || json === undefined) return null
  switch (typeof json) {
    case 'boolean': return json
    case 'string': return json
    case 'number': {
      if (Number.isInteger(json) && json >= Number(INT_MIN) && json < Number(INT_MAX)) return BigInt(json)
      return json
    }
    case 'bigint': return json >= INT_MIN && json <= INT_MAX ? json : Number(json)
  }
  if (Array.isArray(json)) return json.map(fromJson)
  const map: RMap = new Map()
  for (const [k, v] of Object.entries(json as Record<string, unknown>)) map.set(k, fromJson(v))
  return map
}

/** A Rhai value as a plain JSON value (integers beyond 2^53 lose precision, as any JavaScript number). */
export function toJson(value: Value): unknown {
  return JSON.parse(jsonText(value))
}

export function jsonText(value: Value): string {
  const out: string[] = []
  write(value, out)
  return out.join('')
}

function write(v: Value, out: string[]): void {
  if (v === null) {
    out.push('null')
    return
  }
  switch (typeof v) {
    case 'boolean': out.push(v ? 'true' : 'false'); return
    case 'bigint': out.push(v.toString()); return
    case 'string': out.push(JSON.stringify(v)); return
    case 'number':
      if (!Number.isFinite(v)) out.push('null')
      else if (Number.isInteger(v) && Math.abs(v) < 1e16) out.push(Object.is(v, -0) ? '-0.0' : `${v}.0`)
      else out.push(JSON.stringify(v))
      return
  }
  if (v instanceof RChar) {
    out.push(JSON.stringify(v.c))
  } else if (v instanceof FnPtr) {
    out.push(JSON.stringify(v.name))
  } else if (Array.isArray(v)) {
    out.push('[')
    v.forEach((item, i) => {
      if (i > 0) out.push(',')
      write(item, out)
    })
    out.push(']')
  } else if (v instanceof Map) {
    out.push('{')
    sortedKeys(v).forEach((k, i) => {
      if (i > 0) out.push(',')
      out.push(JSON.stringify(k), ':')
      write(v.get(k)!, out)
    })
    out.push('}')
  } else {
    out.push(JSON.stringify(display(v)))
  }
}

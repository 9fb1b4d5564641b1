/**
 * Query strings as n8n reads them: parsed like Express's `qs` (`+` is a space, a bad percent-escape stays as
 * written, a repeated name becomes a list), then checked like express-openapi-validator checks parameters:
 * - a name the route does not declare: 400 `Unknown query parameter 'x'`; a declared one with an empty value:
 *   400 `Empty value found for query parameter 'x'` (the first offender in the query's order, before the rest);
 * - then each declared parameter, in the route's order, coerced as Ajv's `coerceTypes` does (`true`/`false` to
 *   booleans, numeric text to numbers) and validated against its schema; these errors are collected, and join the
 *   body's in one 400.
 */
import { ApiError } from './errors.js'
import { typeError, typeMatches, validate, type Schema, type SchemaError } from './schema.js'

/** The parameters of a route, in the order its spec declares them. */
export type QuerySpec = Record<string, Schema>

export type QueryValues = Record<string, unknown>

function decode(text: string): string {
  const spaced = text.replace(/\+/g, ' ')
  try {
    return decodeURIComponent(spaced)
  } catch {
    return spaced
  }
}

/** Name → value (or values, when repeated), in the order the names first appear. */
export function parseQueryString(raw: string): Map<string, string | string[]> {
  const params = new Map<string, string | string[]>()
  for (const part of raw.split('&')) {
    if (part === '') continue
    const eq = part.indexOf('=')
    const name = decode(eq < 0 ? part : part.slice(0, eq))
    const value = eq < 0 ? '' : decode(part.slice(eq + 1))
    if (name === '') continue
    const seen = params.get(name)
    params.set(name, seen === undefined ? value : [...(Array.isArray(seen) ? seen : [seen]), value])
  }
  return params
}

/** Ajv's coercion of a query string to the parameter's type; undefined when it cannot be coerced. */
function coerce(schema: Schema, value: string): unknown {
  switch (schema.type) {
    case 'boolean': return value === 'true' ? true : value === 'false' ? false : undefined
    case 'number':
    case 'integer': return value.trim() !== '' && !Number.isNaN(Number(value)) ? Number(value) : undefined
    default: return value
  }
}

/** Check the query of a request; throws for unknown or empty parameters, returns the values and the other errors. */
export function checkQuery(raw: string, spec: QuerySpec): { values: QueryValues; errors: SchemaError[] } {
  const params = parseQueryString(raw)
  for (const [name, value] of params) {
    if (!Object.hasOwn(spec, name)) throw new ApiError(400, `Unknown query parameter '${name}'`)
    if (value === '') throw new ApiError(400, `Empty value found for query parameter '${name}'`)
  }
  const values: QueryValues = {}
  const errors: SchemaError[] = []
  for (const [name, schema] of Object.entries(spec)) {
    const raw = params.get(name)
    if (raw === undefined) continue
    const path = `/query/${name}`
    const value = Array.isArray(raw) ? undefined : coerce(schema, raw)
    if (value === undefined || (schema.type !== undefined && !typeMatches(schema.type, value))) {
      errors.push(typeError(schema, path))
      continue
    }
    const found = validate(schema, value, path)
    if (found.length > 0) errors.push(...found)
    else values[name] = value
  }
  return { values, errors }
}

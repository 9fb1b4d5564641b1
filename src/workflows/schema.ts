/**
 * Request validation as n8n's API validator reports it. n8n validates every request against its OpenAPI spec with
 * express-openapi-validator (Ajv, all errors collected) and answers 400 with the errors joined by ", ", each
 * `request<instancePath> <message>`, e.g. `request/query/limit must be <= 250` or
 * `request/body must have required property 'name'`. This is the subset of JSON Schema the workflow API's
 * schemas use (bodies.ts), checked in Ajv's order with Ajv's messages:
 *
 * - a type without keywords of its own is checked first; `enum`, `anyOf` and the validator's `readOnly` (a
 *   request may not set a read-only property) come next; then the type with its keywords: numbers `maximum`,
 *   `minimum`; strings `format`; arrays `items`; objects `required`, `additionalProperties`, `properties`;
 * - `nullable` (OpenAPI) lets null through the type check and shows in its message (`must be object,null`).
 */

export type JsonType = 'object' | 'array' | 'string' | 'number' | 'integer' | 'boolean'

export interface Schema {
  type?: JsonType
  nullable?: boolean
  /** A property a request may not set (express-openapi-validator: `is read-only`). */
  readOnly?: boolean
  enum?: readonly string[]
  anyOf?: Schema[]
  /** `jsonString`: a string holding JSON (n8n's custom format for static data). */
  format?: 'jsonString'
  minimum?: number
  maximum?: number
  /** Whole numbers only (Tessera's addition for page sizes: `must be integer`). */
  whole?: boolean
  properties?: Record<string, Schema>
  required?: readonly string[]
  additionalProperties?: boolean
  items?: Schema
}

export interface SchemaError {
  /** The instance path, JSON-pointer style, from the request: `/query/limit`, `/body/nodes/0/name`. */
  path: string
  message: string
}

/** The 400 message of a list of errors, as express-openapi-validator writes it. */
export function validationMessage(errors: SchemaError[]): string {
  return errors.map((e) => `request${e.path} ${e.message}`).join(', ')
}

export function typeMatches(type: JsonType, value: unknown): boolean {
  switch (type) {
    case 'object': return typeof value === 'object' && value !== null && !Array.isArray(value)
    case 'array': return Array.isArray(value)
    case 'string': return typeof value === 'string'
    // Ajv's strictNumbers: NaN and Infinity are not numbers.
    case 'number': return typeof value === 'number' && Number.isFinite(value)
    case 'integer': return typeof value === 'number' && Number.isInteger(value)
    case 'boolean': return typeof value === 'boolean'
  }
}

export function typeError(schema: Schema, path: string): SchemaError {
  return { path, message: `must be ${schema.type}${schema.nullable ? ',null' : ''}` }
}

function hasTypeKeywords(s: Schema): boolean {
  switch (s.type) {
    case 'object': return s.properties !== undefined || s.required !== undefined || s.additionalProperties !== undefined
    case 'array': return s.items !== undefined
    case 'string': return s.format !== undefined
    case 'number':
    case 'integer': return s.minimum !== undefined || s.maximum !== undefined || s.whole !== undefined
    default: return false
  }
}

/** JSON-pointer escaping of a property name in an instance path. */
const pointer = (key: string) => '/' + key.replace(/~/g, '~0').replace(/\//g, '~1')

/** Every error of `value` against `schema`, in Ajv's order; `path` is the value's instance path. */
export function validate(schema: Schema, value: unknown, path: string): SchemaError[] {
  const errors: SchemaError[] = []
  const typeOk = schema.type === undefined || typeMatches(schema.type, value) || (schema.nullable === true && value === null)
  const typeFirst = schema.type !== undefined && !hasTypeKeywords(schema)
  if (typeFirst && !typeOk) errors.push(typeError(schema, path))

  if (schema.enum && !schema.enum.includes(value as string)) {
    // express-openapi-validator appends the allowed values to Ajv's message.
    errors.push({ path, message: `must be equal to one of the allowed values: ${schema.enum.join(', ')}` })
  }
  if (schema.anyOf) {
    const branches = schema.anyOf.map((branch) => validate(branch, value, path))
    if (branches.every((b) => b.length > 0)) errors.push(...branches.flat(), { path, message: 'must match a schema in anyOf' })
  }
  if (schema.readOnly && value !== null && value !== undefined) errors.push({ path, message: 'is read-only' })

  if (schema.type !== undefined && !typeFirst) {
    if (!typeOk) errors.push(typeError(schema, path))
    else if (value !== null) errors.push(...typeKeywords(schema, value, path))
  }
  return errors
}

function typeKeywords(schema: Schema, value: unknown, path: string): SchemaError[] {
  const errors: SchemaError[] = []
  if (typeof value === 'number') {
    if (schema.maximum !== undefined && value > schema.maximum) errors.push({ path, message: `must be <= ${schema.maximum}` })
    if (schema.minimum !== undefined && value < schema.minimum) errors.push({ path, message: `must be >= ${schema.minimum}` })
    if (schema.whole && !Number.isInteger(value)) errors.push({ path, message: 'must be integer' })
  } else if (typeof value === 'string') {
    if (schema.format === 'jsonString' && !isJson(value)) errors.push({ path, message: 'must match format "jsonString"' })
  } else if (Array.isArray(value)) {
    if (schema.items) value.forEach((item, i) => errors.push(...validate(schema.items!, item, `${path}/${i}`)))
  } else if (typeof value === 'object' && value !== null) {
    const object = value as Record<string, unknown>
    for (const name of schema.required ?? []) {
      if (object[name] === undefined) errors.push({ path, message: `must have required property '${name}'` })
    }
    if (schema.additionalProperties === false) {
      const known = schema.properties ?? {}
      for (const key of Object.keys(object)) {
        if (!Object.hasOwn(known, key)) errors.push({ path, message: 'must NOT have additional properties' })
      }
    }
    for (const [name, sub] of Object.entries(schema.properties ?? {})) {
      if (Object.hasOwn(object, name) && object[name] !== undefined) errors.push(...validate(sub, object[name], path + pointer(name)))
    }
  }
  return errors
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text)
    return true
  } catch {
    return false
  }
}

/**
 * Edit-by-function on one document, as Meilisearch's `update_by_function.rs` does it: `context` (when given) is a
 * constant and `doc` the document in scope; afterwards `doc` set to `()` deletes the document, anything but an
 * object map is an error, an unchanged document is left alone, and a changed one must keep its primary key.
 */
import type { Document } from '../payload/documents.js'
import { documentId, externalId, invalidDocumentId } from '../documents/ids.js'
import { TesseraError } from '../errors/index.js'
import { RhaiRuntimeError, RhaiSyntaxError } from './errors.js'
import { fromJson, jsonText } from './json.js'
import type { RunLimits } from './limits.js'
import { runScript, type RhaiProgram, type ScriptVariable } from './program.js'
import type { RMap, Value } from './values.js'

export type EditOutcome =
  | { kind: 'unchanged' }
  | { kind: 'deleted' }
  /** `json`: the new document as Meilisearch writes it (keys in Rhai's order, whole floats as `1.0`). */
  | { kind: 'edited'; json: string }

export interface EditOptions {
  /** The request's `context` (a JSON object), or null/undefined for none. */
  context?: unknown
  primaryKey: string
  limits?: RunLimits
  print?: (text: string) => void
}

export const CANNOT_MODIFY_PRIMARY_KEY = "Document editions cannot modify a document's primary key"
export const MUST_BE_OBJECT = 'Document editions must keep documents as objects'

/**
 * Run the script on one document. Throws `RhaiRuntimeError` when the script fails, and `TesseraError` when its
 * result is refused (not an object, a changed, missing or invalid primary key).
 */
export function editDocument(program: RhaiProgram, document: Document, options: EditOptions): EditOutcome {
  const originalId = documentId(document, options.primaryKey)
  const working = fromJson(document)
  const variables: ScriptVariable[] = []
  if (options.context !== null && options.context !== undefined) variables.push({ name: 'context', value: fromJson(options.context), constant: true })
  variables.push({ name: 'doc', value: working })
  const run = runScript(program, variables, { limits: options.limits, print: options.print })
  const doc = run.globals.findLast((b) => b.name === 'doc')!.value
  if (doc === null) return { kind: 'deleted' }
  if (!(doc instanceof Map)) throw new TesseraError('edit_documents_by_function_error', MUST_BE_OBJECT)
  if (sameAsJson(doc, document)) return { kind: 'unchanged' }
  const json = jsonText(doc)
  if (newDocumentId(doc, options.primaryKey, json) !== originalId) throw new TesseraError('edit_documents_by_function_error', CANNOT_MODIFY_PRIMARY_KEY)
  return { kind: 'edited', json }
}

/** The external id of the edited document, with Tessera's missing/invalid id errors. */
function newDocumentId(doc: RMap, primaryKey: string, json: string): string {
  let value: Value | undefined = doc.has(primaryKey) ? doc.get(primaryKey) : undefined
  if (value === undefined && primaryKey.includes('.')) {
    let current: Value | undefined = doc
    for (const part of primaryKey.split('.')) current = current instanceof Map ? current.get(part) : undefined
    value = current
  }
  if (value === undefined) throw new TesseraError('missing_document_id', `Document doesn't have a \`${primaryKey}\` attribute: \`${json}\`.`)
  // A FLOAT is never a document id, even a whole one (serde_json keeps `1.0` a float).
  if (typeof value === 'number') throw invalidDocumentId(value)
  return externalId(typeof value === 'bigint' ? Number(value) : JSON.parse(jsonText(value)))
}

/**
 * Is the edited value the same as the original JSON? INT and FLOAT are told apart, as comparing serde_json
 * values does: a JSON number is an INT when whole and within i64 (see `fromJson`).
 */
function sameAsJson(v: Value, json: unknown): boolean {
  if (v === null) return json === null
  switch (typeof v) {
    case 'boolean': case 'string': return v === json
    case 'bigint': return typeof json === 'number' && fromJson(json) === v
    case 'number': return typeof json === 'number' && typeof fromJson(json) === 'number' && (v === json || (Number.isNaN(v) && Number.isNaN(json)))
  }
  if (Array.isArray(v)) return Array.isArray(json) && v.length === json.length && v.every((x, i) => sameAsJson(x, json[i]))
  if (v instanceof Map) {
    if (typeof json !== 'object' || json === null || Array.isArray(json)) return false
    const entries = Object.keys(json)
    if (entries.length !== v.size) return false
    for (const k of entries) if (!v.has(k) || !sameAsJson(v.get(k)!, (json as Record<string, unknown>)[k])) return false
    return true
  }
  // Characters, function pointers and ranges are never in a stored document.
  return false
}

/** Meilisearch's wording of a failed edit, as the task error (`edit_documents_by_function_error`). */
export function editTaskError(err: unknown): TesseraError {
  if (err instanceof TesseraError) return err
  if (err instanceof RhaiRuntimeError) {
    return new TesseraError('edit_documents_by_function_error', `Document edition runtime error encountered while running the function: ${err.message}`)
  }
  if (err instanceof RhaiSyntaxError) {
    return new TesseraError('edit_documents_by_function_error', `Document edition runtime error encountered while compiling the function: ${err.message}`)
  }
  throw err
}

/** The route's answer to a script that does not compile: `bad_request` with Rhai's message. */
export function editRouteError(err: RhaiSyntaxError): TesseraError {
  return new TesseraError('bad_request', err.message)
}

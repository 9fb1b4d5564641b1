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
import { FnPtr, RChar, RRange, own, typeName, type RMap, type Value } from './values.js'

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
  const original = own(working)
  const variables: ScriptVariable[] = []
  if (options.context !== null && options.context !== undefined) variables.push({ name: 'context', value: fromJson(options.context), constant: true })
  variables.push({ name: 'doc', value: working })
  const run = runScript(program, variables, { limits: options.limits, print: options.print })
  const doc = run.globals.findLast((b) => b.name === 'doc')!.value
  if (doc === null) return { kind: 'deleted' }
  if (!(doc instanceof Map)) throw new TesseraError('edit_documents_by_function_error', MUST_BE_OBJECT)
  if (strictlyEqual(original, doc)) return { kind: 'unchanged' }
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

/** Equality that tells INT from FLOAT, as comparing serde_json values does. */
function strictlyEqual(a: Value, b: Value): boolean {
  if (a === b) return true
  if (typeName(a) !== typeName(b)) return false
  if (typeof a === 'number') return a === b || (Number.isNaN(a) && Number.isNaN(b as number))
  if (a instanceof RChar) return a.c === (b as RChar).c
  if (Array.isArray(a)) {
    const other = b as Value[]
    return a.length === other.length && a.every((x, i) => strictlyEqual(x, other[i]!))
  }
  if (a instanceof Map) {
    const other = b as RMap
    if (a.size !== other.size) return false
    for (const [k, v] of a) if (!other.has(k) || !strictlyEqual(v, other.get(k)!)) return false
    return true
  }
  if (a instanceof FnPtr || a instanceof RRange) return jsonText(a) === jsonText(b)
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

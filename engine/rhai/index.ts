/**
 * The Rhai interpreter behind `POST /indexes/{uid}/documents/edit` (edit documents by function).
 *
 * - `compileScript(source)`: parse with the limits Meilisearch's route compiles with; throws `RhaiSyntaxError`
 *   (`editRouteError` turns it into the route's `bad_request`).
 * - `editDocument(program, doc, {context, primaryKey})`: run on one document → unchanged / deleted / edited JSON.
 * - `editChunk(input)`: the same over a chunk of JSON-text documents, plain data in and out, for the worker pool.
 * - `editTaskError(err)`: a failure as Meilisearch's task error (`edit_documents_by_function_error`).
 *
 * Scripts reach nothing outside their values: there is no I/O, module, `eval` or global access, and every run is
 * bounded by `RunLimits` (operations, call depth, variables, string/array/map sizes, work).
 */
export { compileScript, runScript, RhaiProgram, type ScriptRun, type ScriptVariable, type RunOptions } from './program.js'
export { editDocument, editTaskError, editRouteError, CANNOT_MODIFY_PRIMARY_KEY, MUST_BE_OBJECT, type EditOutcome, type EditOptions } from './edit.js'
export { editChunk, type EditChunkInput, type EditChunkOutput, type DocumentOutcome } from './chunk.js'
export { RhaiSyntaxError, RhaiRuntimeError, type Position } from './errors.js'
export { DEFAULT_LIMITS, MEILISEARCH_LIMITS, type RunLimits } from './limits.js'
export { ROUTE_COMPILE_LIMITS, TASK_COMPILE_LIMITS, type CompileLimits } from './parser.js'
export { fromJson, toJson, jsonText } from './json.js'
export { display, debug } from './format.js'
export type { Value } from './values.js'

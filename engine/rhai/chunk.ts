/**
 * Edit-by-function over a chunk of documents, as a pure function of plain data for the worker pool: the script
 * text, the context and the documents as JSON text in; per document the edited JSON text, a deletion or no
 * change out, up to the first error (which fails the whole task in Meilisearch, so the rest is not run).
 *
 * The script is compiled once per chunk with Meilisearch's task-engine limits (compiling is cheap next to
 * running: see the report in test/engine/rhai/throughput.test.ts).
 */
import { TesseraError, type ErrorCode } from '../errors/index.js'
import type { Document } from '../payload/documents.js'
import { editDocument, editTaskError } from './edit.js'
import { DEFAULT_LIMITS, type RunLimits } from './limits.js'
import { TASK_COMPILE_LIMITS } from './parser.js'
import { compileScript, type RhaiProgram } from './program.js'

export interface EditChunkInput {
  /** The Rhai script (`function` of the request). */
  script: string
  /** The request's `context` as JSON text, or null. */
  context: string | null
  primaryKey: string
  /** Each document as JSON text. */
  documents: string[]
  limits?: RunLimits
}

export type DocumentOutcome = { kind: 'unchanged' } | { kind: 'deleted' } | { kind: 'edited'; json: string }

export interface EditChunkOutput {
  /** One per document, up to (excluding) the failing one. */
  outcomes: DocumentOutcome[]
  /** The first failure: which document, and the task error. */
  error: { index: number; code: ErrorCode; message: string } | null
}

export function editChunk(input: EditChunkInput): EditChunkOutput {
  const outcomes: DocumentOutcome[] = []
  let program: RhaiProgram
  try {
    program = compileScript(input.script, TASK_COMPILE_LIMITS)
  } catch (err) {
    const e = editTaskError(err)
    return { outcomes, error: { index: 0, code: e.code, message: e.message } }
  }
  const context: unknown = input.context === null ? null : JSON.parse(input.context)
  const options = { context, primaryKey: input.primaryKey, limits: input.limits ?? DEFAULT_LIMITS }
  for (let index = 0; index < input.documents.length; index++) {
    try {
      const document = JSON.parse(input.documents[index]!) as Document
      outcomes.push(editDocument(program, document, options))
    } catch (err) {
      const e = toTaskError(err)
      return { outcomes, error: { index, code: e.code, message: e.message } }
    }
  }
  return { outcomes, error: null }
}

/** Script and document failures as Meilisearch's task errors; anything else (a document nested beyond the
 * JavaScript stack, say) as `internal`, so one document cannot take the worker down. */
function toTaskError(err: unknown): TesseraError {
  try {
    return editTaskError(err)
  } catch {
    return new TesseraError('internal', err instanceof Error ? err.message : String(err))
  }
}

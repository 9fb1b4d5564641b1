/**
 * Which documents an embedder must embed, decided per document as Meilisearch's extractor decides it
 * (`milli/src/update/new/extract/vectors/mod.rs`), from the document's own `_vectors` entry and what is stored:
 *
 *   - a new document is embedded unless `_vectors.<name>` brings vectors (an array, `null`, or `embeddings`), or
 *     says `{ regenerate: false }` without any;
 *   - a changed document is embedded again only when its vectors are generated (`regenerate`) and the text its
 *     template renders changed: a partial update of a field the template does not read costs no request;
 *   - `force` (a model, source or URL change) re-embeds every generated document, changed text or not.
 *
 * "Changed text" compares the new rendering with what was stored: the hash of the previous rendering when the
 * store kept it (`textHash`), else the previous version of the document rendered again (with the previous
 * template when the template is what changed).
 */
import { createHash } from 'node:crypto'
import type { Document } from '../payload/documents.js'
import type { DocumentTemplate, RenderContext } from './document-template.js'

/** What `_vectors.<name>` of a document says. */
export type ProvidedVectors =
  /** No entry for the embedder: the stored state decides. */
  | { kind: 'absent' }
  /** Vectors given by the caller (shorthand array, `null` = none, or `embeddings`): nothing to generate. */
  | { kind: 'provided'; regenerate: boolean }
  /** `{ regenerate }` without embeddings: generate when `regenerate`, keep what is stored otherwise. */
  | { kind: 'flag'; regenerate: boolean }

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

/** The `_vectors.<name>` entry of `doc`, classified (the document was validated: see documents/vectors.ts). */
export function providedVectors(doc: Document, name: string): ProvidedVectors {
  const all = doc._vectors
  if (!isObject(all) || !Object.prototype.hasOwnProperty.call(all, name)) return { kind: 'absent' }
  const entry = all[name]
  if (!isObject(entry)) return { kind: 'provided', regenerate: false }
  const regenerate = entry.regenerate === true
  if (entry.embeddings !== undefined && entry.embeddings !== null) return { kind: 'provided', regenerate }
  return { kind: 'flag', regenerate }
}

/** What the store holds for one document and embedder before the change. */
export interface PreviousVectors {
  /** Whether its vectors are generated (true) or user-provided (false). */
  regenerate: boolean
  /** Hash (`textHash`) of the text the vectors were generated from, when the store kept it. */
  textHash?: string | null
}

/** The hash kept with generated vectors to tell later whether a document's text changed (22 base64url chars). */
export function textHash(text: string): string {
  return createHash('sha256').update(text).digest('base64url').slice(0, 22)
}

/** The document as its template sees it: `_vectors` is not part of the text. */
export function templateDocument(doc: Document): Document {
  if (!('_vectors' in doc)) return doc
  const { _vectors: _, ...rest } = doc
  return rest
}

export interface PlanDocument {
  doc: Document
  /** External id, named in errors. */
  id: string
  /** Stored state for this embedder; absent for a new document (or one whose vectors were never stored). */
  previous?: PreviousVectors
  /** The stored version of the document (updates and settings changes), when `previous.textHash` is unknown. */
  previousDoc?: Document
}

export interface PlanOptions {
  /** The embedder's name (the key of `_vectors` read). */
  name: string
  template: DocumentTemplate
  /** The template before a settings change, to render `previousDoc` with; the current one otherwise. */
  previousTemplate?: DocumentTemplate
  context: Omit<RenderContext, 'documentId'>
  force: boolean
}

/** One text to embed: the document's position in the chunk, the text and its hash. */
export interface PlannedText {
  at: number
  text: string
  hash: string
}

/**
 * The texts `documents` need embedded for one embedder, in order. Documents left out keep what is stored (or get
 * the vectors they bring). Throws the template's `invalid_document_fields` error for a document it cannot render.
 */
export function planEmbeddings(documents: readonly PlanDocument[], options: PlanOptions): PlannedText[] {
  const out: PlannedText[] = []
  documents.forEach((entry, at) => {
    if (!generates(providedVectors(entry.doc, options.name), entry.previous)) return
    const render = (template: DocumentTemplate, doc: Document) => template.render(templateDocument(doc), { ...options.context, documentId: entry.id })
    const text = render(options.template, entry.doc)
    const hash = textHash(text)
    if (!options.force && entry.previous?.regenerate === true) {
      if (entry.previous.textHash != null) {
        if (entry.previous.textHash === hash) return
      } else if (entry.previousDoc !== undefined && render(options.previousTemplate ?? options.template, entry.previousDoc) === text) {
        return
      }
    }
    out.push({ at, text, hash })
  })
  return out
}

/**
 * Whether the embedder generates this document's vectors at all (before texts are compared): not when the document
 * brings its own, nor when they are user-provided and kept (`regenerate: false`, now or before).
 */
export function generates(provided: ProvidedVectors, previous: PreviousVectors | undefined): boolean {
  switch (provided.kind) {
    case 'provided': return false
    case 'flag': return provided.regenerate
    case 'absent': return previous === undefined || previous.regenerate
  }
}

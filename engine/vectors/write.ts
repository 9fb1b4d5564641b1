/**
 * The one entry the indexing code calls to store a document's vectors: the user-provided part read from its
 * `_vectors` merged with the part an embedder generated (issue 20's `generateEmbeddings`, when there is one).
 * Embedders the document names neither way keep the vectors the document had.
 */
import type { VectorDraft } from './draft.js'
import type { DocumentVectors } from './types.js'

/** Provided vectors win, unless they ask to be regenerated and the embedder did generate new ones. */
export function mergeVectors(provided: DocumentVectors, generated?: DocumentVectors): DocumentVectors {
  if (!generated) return provided
  const out: DocumentVectors = { ...generated }
  for (const [name, v] of Object.entries(provided)) if (!(v.regenerate && generated[name] !== undefined)) out[name] = v
  return out
}

export function storeDocumentVectors(draft: VectorDraft, docid: number, provided: DocumentVectors, generated?: DocumentVectors): void {
  const merged = mergeVectors(provided, generated)
  if (Object.keys(merged).length > 0) draft.set(docid, merged)
}

/**
 * The vector store's glossary: what one document carries per embedder, as the indexing write path receives it.
 *
 * Indexing builds one `DocumentVectors` per document from two parts of the same shape, merged embedder by
 * embedder: the user-provided part read from the document's `_vectors` field, and an optional generated part
 * produced by embedding the document's template (issue 20's `generateEmbeddings`). The store writes both, each
 * vector tagged with where it came from, in the batch's atomic commit.
 */

/** One embedder's vectors of one document. */
export interface EmbedderVectors {
  /** Every vector of the document for this embedder (several are allowed); empty means none. */
  embeddings: Float32Array[]
  /** True when the vectors came from `_vectors` rather than from the embedder. */
  userProvided: boolean
  /**
   * Whether the embedder may regenerate them when the document changes (`_vectors.name.regenerate`). False keeps
   * user-provided vectors across updates that do not mention them.
   */
  regenerate: boolean
}

/** Vectors of one document, keyed by embedder name. */
export type DocumentVectors = Record<string /* embedder */, EmbedderVectors>

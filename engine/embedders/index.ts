/**
 * Embedders: what turns texts into vectors, for every source of the spec.
 *
 *   const embedder = await createEmbedder('default', settings.embedders.default, runtime)
 *   const texts = documents.map((doc) => embedder.documentTemplate!.render(doc, { documentId }))
 *   const vectors = await embedder.embedDocuments(texts, { signal })
 *   const query = await embedder.embedQuery('a brave dog')
 *
 * `createEmbedder` takes plain data only (the stored settings and `EmbedderRuntime`), so a worker thread builds
 * its own embedders from what it is sent; `embedderFor` keeps them per thread across jobs.
 * Settings-time checks for the settings code: `checkDocumentTemplate`, `checkRestTemplates`.
 */
export { createEmbedder, type EmbedderConfig } from './factory.js'
export { embedderFor, closeEmbedders, closeIdleEmbedders, releaseEmbedders, heldEmbedders } from './registry.js'
export type { EmbedOptions, Embedder, EmbedderRuntime, RemoteTuning } from './types.js'
export { DocumentTemplate, checkDocumentTemplate, templateProblem, truncateUtf8, type RenderContext } from './document-template.js'
export { checkRestTemplates } from './rest-templates.js'
export { EmbeddingError } from './errors.js'
export { parseAllowedIpNetworks, type AllowedIpNetworks } from './ip-policy.js'
export { QueryCache } from './query-cache.js'
export { RequestStats, type EmbedderRequests } from './request-stats.js'
export { generateEmbeddings, queryEmbedder, setEmbedderRuntime, embedderRuntime, totalRequests, searchableTest, type GenerateInput, type GeneratedEmbeddings, type GenerateEmbedder } from './generate.js'
export { generateAll, checkAllUserVectors, chunkSizeOf, type ChunkRunner, type GenerateAllInput } from './generate-chunks.js'
export { textHash, providedVectors, type PreviousVectors } from './embedding-plan.js'

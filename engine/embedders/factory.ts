/**
 * The factory: an `Embedder` from an embedder's stored settings (its `source` in either spelling) and the
 * thread's runtime options. Both are plain data, so this runs the same in any thread.
 */
import type { EmbedderSettings } from './config.js'
import { embedderKind } from './config.js'
import { CompositeEmbedder } from './composite.js'
import { DocumentTemplate, checkDocumentTemplate } from './document-template.js'
import { createHostedAiEmbedder } from './hosted-ai.js'
import { createLocalServerEmbedder } from './local-server.js'
import { RemoteEmbedder } from './rest.js'
import { resolveRuntime, type Embedder, type EmbedderRuntime, type RemoteTuning, type ResolvedRuntime } from './types.js'
import { UserProvidedEmbedder } from './user-provided.js'

/** Stored settings of an embedder, with the Tessera-only tuning fields the settings may carry. */
export type EmbedderConfig = EmbedderSettings & RemoteTuning

function template(name: string, settings: EmbedderSettings): DocumentTemplate {
  const text = settings.documentTemplate
  if (text !== undefined) checkDocumentTemplate(name, text)
  return DocumentTemplate.compile(text, settings.documentTemplateMaxBytes)
}

async function build(name: string, settings: EmbedderConfig, runtime: ResolvedRuntime, signal?: AbortSignal): Promise<Embedder> {
  switch (embedderKind(settings.source)) {
    case 'userProvided':
      return new UserProvidedEmbedder(name, settings)
    case 'hostedAi':
      return createHostedAiEmbedder(name, settings, template(name, settings), runtime, signal)
    case 'localServer':
      return createLocalServerEmbedder(name, settings, template(name, settings), runtime, signal)
    case 'localHub': {
      // Loaded on first use: transformers.js and ONNX Runtime cost every worker a third of a second to import.
      const { LocalHubEmbedder } = await import('./local-hub.js')
      return LocalHubEmbedder.create(name, settings, template(name, settings), runtime)
    }
    case 'rest':
      return RemoteEmbedder.create({
        name,
        kind: 'rest',
        url: settings.url ?? '',
        request: settings.request,
        response: settings.response,
        headers: settings.headers ?? {},
        apiKey: settings.apiKey ?? null,
        dimensions: settings.dimensions ?? null,
        distribution: settings.distribution ?? null,
        documentTemplate: template(name, settings),
        source: 'user',
        tuning: settings,
      }, runtime, signal)
    case 'composite':
      return CompositeEmbedder.create(name, settings, runtime, build, signal)
  }
}

/**
 * Build the embedder `name` from its stored settings (defaults of its source filled in, as `applyEmbedder`
 * stores them). Remote sources without `dimensions` send one probe request; `localHub` loads its model; a
 * composite checks its two halves agree. Fails with `vector_embedding_error` (`Error while generating
 * embeddings: …`), or with `invalid_settings_embedders` for a template that does not parse.
 */
export function createEmbedder(name: string, settings: EmbedderConfig, runtime: EmbedderRuntime = {}, signal?: AbortSignal): Promise<Embedder> {
  return build(name, settings, resolveRuntime(runtime), signal)
}

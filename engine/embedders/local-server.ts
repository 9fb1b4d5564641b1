/**
 * `localServer`: an Ollama-compatible server (Meilisearch's `ollama` source, `embedder/ollama.rs`), as a remote
 * embedder whose templates follow the URL's endpoint:
 *   `…/api/embeddings` (one text):  `{"model", "prompt": "{{text}}"}` → `{"embedding": "{{embedding}}"}`
 *   `…/api/embed` (batches):        `{"model", "input": ["{{text}}", "{{..}}"]}` → `{"embeddings": ["{{embedding}}", "{{..}}"]}`
 * Any other path is refused. The URL is the settings' `url`, else the `LOCAL_SERVER_URL` environment variable,
 * else `http://localhost:11434/api/embeddings` (a loopback address: it needs `--experimental-allowed-ip-networks`).
 * A 404 means the model is not pulled, and says so. Dimensions are probed unless the settings give them.
 */
import type { EmbedderSettings } from './config.js'
import type { DocumentTemplate } from './document-template.js'
import { EmbedError, generationFailed, modelNotFoundOnServer, unsupportedOllamaUrl } from './errors.js'
import { RemoteEmbedder } from './rest.js'
import { REPEAT_PLACEHOLDER, REQUEST_PLACEHOLDER, RESPONSE_PLACEHOLDER } from './rest-templates.js'
import type { RemoteTuning, ResolvedRuntime } from './types.js'

export const LOCAL_SERVER_DEFAULT_URL = 'http://localhost:11434/api/embeddings'

/** The request and response templates for `url`, or null when its path is not an embeddings endpoint. */
export function localServerTemplates(url: string, model: string): { request: unknown; response: unknown } | null {
  // `/api/embed` is a suffix of neither, but test `/api/embeddings` first anyway, as Meilisearch does.
  if (url.endsWith('/api/embeddings')) return { request: { model, prompt: REQUEST_PLACEHOLDER }, response: { embedding: RESPONSE_PLACEHOLDER } }
  if (url.endsWith('/api/embed')) {
    return { request: { model, input: [REQUEST_PLACEHOLDER, REPEAT_PLACEHOLDER] }, response: { embeddings: [RESPONSE_PLACEHOLDER, REPEAT_PLACEHOLDER] } }
  }
  return null
}

export function createLocalServerEmbedder(
  name: string, settings: EmbedderSettings & RemoteTuning, template: DocumentTemplate | null, runtime: ResolvedRuntime, signal?: AbortSignal,
): Promise<RemoteEmbedder> {
  const url = settings.url ?? runtime.env['LOCAL_SERVER_URL'] ?? LOCAL_SERVER_DEFAULT_URL
  const templates = localServerTemplates(url, settings.model ?? '')
  if (templates === null) return Promise.reject(generationFailed(unsupportedOllamaUrl(url)))
  return RemoteEmbedder.create({
    name,
    kind: 'localServer',
    url,
    ...templates,
    headers: {},
    apiKey: settings.apiKey ?? null,
    dimensions: settings.dimensions ?? null,
    distribution: settings.distribution ?? null,
    documentTemplate: template,
    source: 'localServer',
    tuning: settings,
    mapError: (error: EmbedError) => (error.status === 404 ? modelNotFoundOnServer(error.body) : error),
  }, runtime, signal)
}

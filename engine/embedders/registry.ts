/**
 * The embedders of one thread, kept across jobs: building one can cost a probe request or a model load, so a
 * worker builds each (index, embedder) once and rebuilds it only when its settings or the runtime change.
 * Concurrent jobs asking for the same embedder share one build; a failed build is forgotten so the next job
 * tries again.
 */
import { createEmbedder, type EmbedderConfig } from './factory.js'
import type { Embedder, EmbedderRuntime } from './types.js'

interface Entry {
  fingerprint: string
  embedder: Promise<Embedder>
}

const entries = new Map<string, Entry>()

/**
 * The embedder `name` of the index `indexUid` in this thread, built on first use and whenever `settings` or
 * `runtime` differ from those it was built with (the old one is closed).
 */
export function embedderFor(indexUid: string, name: string, settings: EmbedderConfig, runtime: EmbedderRuntime = {}): Promise<Embedder> {
  const key = JSON.stringify([indexUid, name])
  const fingerprint = JSON.stringify([settings, { ...runtime, env: undefined }])
  const current = entries.get(key)
  if (current?.fingerprint === fingerprint) return current.embedder
  if (current) void current.embedder.then((e) => e.close(), () => undefined)
  const embedder = createEmbedder(name, settings, runtime)
  const entry = { fingerprint, embedder }
  entries.set(key, entry)
  embedder.catch(() => {
    if (entries.get(key) === entry) entries.delete(key)
  })
  return embedder
}

/** Close and forget the embedders of `indexUid` (all of them without it): an index deleted, a thread ending. */
export async function closeEmbedders(indexUid?: string): Promise<void> {
  const closing: Promise<void>[] = []
  for (const [key, entry] of entries) {
    if (indexUid !== undefined && (JSON.parse(key) as string[])[0] !== indexUid) continue
    entries.delete(key)
    closing.push(entry.embedder.then((e) => e.close(), () => undefined))
  }
  await Promise.all(closing)
}

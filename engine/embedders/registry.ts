/**
 * The embedders of one thread, kept across jobs: building one can cost a probe request or a model load, so a
 * worker builds each (index, embedder) once and rebuilds it only when its settings or the runtime change.
 * Concurrent jobs asking for the same embedder share one build; a failed build is forgotten so the next job
 * tries again. A build still under way when its embedder is replaced or closed is aborted (its probe's requests
 * and retry waits end), so nothing outlives its index.
 */
import { createEmbedder, type EmbedderConfig } from './factory.js'
import type { Embedder, EmbedderRuntime } from './types.js'

interface Entry {
  fingerprint: string
  /** The settings alone (JSON), to tell whether the index's embedder still is this one. */
  settings: string
  embedder: Promise<Embedder>
  /** Aborts the build while it runs (a probe's retries can last minutes against a failing server). */
  build: AbortController
  /** Epoch ms of the last `embedderFor` that returned it. */
  usedAt: number
}

const entries = new Map<string, Entry>()

/**
 * What an embedder is built from. `env` is left out (copied per thread, equal in content) and so is
 * `knownDimensions`: a hint that spares a probe, giving the same embedder as the probe would.
 */
function fingerprintOf(settings: EmbedderConfig, runtime: EmbedderRuntime): string {
  return JSON.stringify([settings, { ...runtime, env: undefined, knownDimensions: undefined }])
}

/** Abort the entry's build if it still runs, then close what it built. */
function retire(entry: Entry): Promise<void> {
  entry.build.abort(new Error('embedder closed'))
  return entry.embedder.then((e) => e.close(), () => undefined)
}

/**
 * The embedder `name` of the index `indexUid` in this thread, built on first use and whenever `settings` or
 * `runtime` differ from those it was built with (the old one is closed).
 */
export function embedderFor(indexUid: string, name: string, settings: EmbedderConfig, runtime: EmbedderRuntime = {}): Promise<Embedder> {
  const key = JSON.stringify([indexUid, name])
  const fingerprint = fingerprintOf(settings, runtime)
  const current = entries.get(key)
  if (current?.fingerprint === fingerprint) {
    current.usedAt = Date.now()
    return current.embedder
  }
  if (current) void retire(current)
  const build = new AbortController()
  const embedder = createEmbedder(name, settings, runtime, build.signal)
  const entry = { fingerprint, settings: JSON.stringify(settings), embedder, build, usedAt: Date.now() }
  entries.set(key, entry)
  embedder.catch(() => {
    if (entries.get(key) === entry) entries.delete(key)
  })
  return embedder
}

/** Close and forget the embedders of `indexUid` (all of them without it): an index deleted, a thread ending. */
export async function closeEmbedders(indexUid?: string): Promise<void> {
  await closeWhere((uid) => indexUid === undefined || uid === indexUid)
}

/**
 * Close what this thread holds for `indexUid` that the index's embedders no longer are: everything when the
 * index is gone (`null`), else the embedders removed from its settings and those whose settings changed (the next
 * use builds the new one).
 */
export async function releaseEmbedders(indexUid: string, embedders: Readonly<Record<string, EmbedderConfig>> | null): Promise<void> {
  await closeWhere((uid, name, entry) => {
    if (uid !== indexUid) return false
    const current = embedders === null || !Object.hasOwn(embedders, name) ? undefined : embedders[name]
    return current === undefined || JSON.stringify(current) !== entry.settings
  })
}

/**
 * Close the embedders not used for `idleMs`. Worker threads call it before each generation job: they are never
 * told an index was deleted, so what they built for it goes once it has sat unused that long (no timer runs).
 */
export async function closeIdleEmbedders(idleMs: number, now = Date.now()): Promise<void> {
  await closeWhere((_uid, _name, entry) => now - entry.usedAt >= idleMs)
}

async function closeWhere(test: (indexUid: string, name: string, entry: Entry) => boolean): Promise<void> {
  const closing: Promise<void>[] = []
  for (const [key, entry] of entries) {
    const [uid, name] = JSON.parse(key) as [string, string]
    if (!test(uid, name, entry)) continue
    entries.delete(key)
    closing.push(retire(entry))
  }
  await Promise.all(closing)
}

/** The (index, embedder) pairs this thread holds, built or being built (what a test checks is gone). */
export function heldEmbedders(): { indexUid: string; name: string }[] {
  return [...entries.keys()].map((key) => {
    const [indexUid, name] = JSON.parse(key) as [string, string]
    return { indexUid, name }
  })
}

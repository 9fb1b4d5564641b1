/**
 * Writing a dump (a `dumpCreation` task): Meilisearch's v6 layout in a temporary directory beside the dump, packed
 * as a gzipped tar and renamed into place, so `<dump-dir>/<dumpUid>.dump` exists only once it is complete.
 *
 * ```
 * metadata.json              {dumpVersion: "V6", dbVersion, dumpDate}
 * keys.jsonl                 API keys
 * experimental-features.json switches
 * network.json               this instance's `/network` (self, remotes, shards)
 * tasks/queue.jsonl          every task (the dump's own as succeeded)
 * tasks/update_files/<uid>.jsonl   documents of each waiting document addition
 * batches/queue.jsonl        every batch
 * indexes/<uid>/{metadata.json, settings.json, documents.jsonl}
 * ```
 *
 * The dump runs alone in its batch, so no index changes while it is written; tasks registered meanwhile may or may
 * not be in it, as in Meilisearch.
 */
import { createWriteStream, type WriteStream } from 'node:fs'
import { mkdir, rename, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { once } from 'node:events'
import * as tar from 'tar'
import { decode, type Store } from '../storage/index.js'
import type { TaskQueue } from '../tasks/queue.js'
import type { IndexCatalog } from '../indexes/catalog.js'
import type { DocumentStore } from '../documents/store.js'
import type { PayloadFiles } from '../payload/files.js'
import type { Features } from '../features/index.js'
import { CURRENT_FEATURE_NAMES } from '../features/index.js'
import { readNetwork } from '../network/config.js'
import { shape } from '../documents/read.js'
import type { VectorStore } from '../vectors/store.js'
import { storedVectors } from '../vectors/output.js'
import { parsePayloadChunk } from '../payload/documents.js'
import { readSettings, settingsView } from '../settings/index.js'
import { formatMicros } from '../tasks/time.js'
import type { Batch, Micros, Task } from '../tasks/types.js'
import { taskToDump } from './tasks.js'
import { batchToDump, indexMetadataToDump, keyToDump, type StoredKey } from './records.js'

/** What a dump reads. */
export interface DumpSource {
  store: Store
  queue: TaskQueue
  catalog: IndexCatalog
  documents: DocumentStore
  payloads: PayloadFiles
  features: Features
  vectors: VectorStore
}

export interface DumpRequest {
  dir: string
  uid: string
  /** The dumpCreation task itself, written as succeeded (it will be, unless writing fails). */
  task: Task
  startedAt: Micros
  /** `metadata.json`'s `dbVersion`. */
  dbVersion: string
}

/** Where dumps go when `--dump-dir` is not given (Meilisearch's default, relative to the working directory). */
export const DEFAULT_DUMP_DIR = 'dumps/'

/** Documents read per step. */
const PAGE = 1000

/** Meilisearch's dump uid: the UTC time as `YYYYMMDD-HHMMSSmmm`. */
export function newDumpUid(now = new Date()): string {
  const p = (n: number, w = 2) => String(n).padStart(w, '0')
  return `${now.getUTCFullYear()}${p(now.getUTCMonth() + 1)}${p(now.getUTCDate())}-${p(now.getUTCHours())}${p(now.getUTCMinutes())}${p(now.getUTCSeconds())}${p(now.getUTCMilliseconds(), 3)}`
}

/** A JSON-lines file written as a stream (with back-pressure). */
class Lines {
  private readonly out: WriteStream
  constructor(path: string) {
    this.out = createWriteStream(path)
  }
  async push(value: unknown): Promise<void> {
    if (!this.out.write(JSON.stringify(value) + '\n')) await once(this.out, 'drain')
  }
  async close(): Promise<void> {
    this.out.end()
    await once(this.out, 'finish')
  }
}

/** Write the dump; resolves with its path once it is complete. */
export async function writeDump(source: DumpSource, request: DumpRequest): Promise<string> {
  await mkdir(request.dir, { recursive: true })
  const work = join(request.dir, `.${request.uid}.tmp`)
  const target = join(request.dir, `${request.uid}.dump`)
  const partial = `${target}.partial`
  await rm(work, { recursive: true, force: true })
  try {
    await mkdir(join(work, 'tasks', 'update_files'), { recursive: true })
    await mkdir(join(work, 'batches'))
    await mkdir(join(work, 'indexes'))
    await writeFile(join(work, 'metadata.json'), JSON.stringify({ dumpVersion: 'V6', dbVersion: request.dbVersion, dumpDate: formatMicros(Date.now() * 1000) }))
    await writeKeys(source.store, join(work, 'keys.jsonl'))
    const switches = source.features.all()
    await writeFile(join(work, 'experimental-features.json'), JSON.stringify(Object.fromEntries(CURRENT_FEATURE_NAMES.map((n) => [n, switches[n]]))))
    await writeFile(join(work, 'network.json'), JSON.stringify(readNetwork(source.store)))
    await writeTasks(source, request, join(work, 'tasks'))
    await writeBatches(source.store, join(work, 'batches', 'queue.jsonl'))
    for (const meta of source.catalog.list()) {
      const dir = join(work, 'indexes', meta.uid)
      await mkdir(dir)
      await writeFile(join(dir, 'metadata.json'), JSON.stringify(indexMetadataToDump(meta)))
      const settings = readSettings(source.store, meta.id)
      // Unmasked: the dump restores embedders with their API keys, as Meilisearch's does.
      await writeFile(join(dir, 'settings.json'), JSON.stringify({ ...settingsView(settings, { foreignKeys: settings.foreignKeys.length > 0 }), embedders: settings.embedders }))
      // Each document with its `_vectors` as `retrieveVectors` shows them: every embedder's embeddings from the vector
      // store (generated ones with `regenerate: true`), over the document's own entries.
      const documents = new Lines(join(dir, 'documents.jsonl'))
      const vectors = Object.keys(settings.embedders).length > 0 ? await source.vectors.get(meta.id) : null
      const count = source.documents.count(meta.id)
      for (let offset = 0; offset < count; offset += PAGE) {
        const docids = source.documents.page(meta.id, offset, PAGE)
        const docs = source.documents.getMany(meta.id, docids)
        if (docs.length !== docids.length) throw new Error(`index ${meta.uid}: ${docids.length - docs.length} live document(s) cannot be read`)
        for (let k = 0; k < docs.length; k++) {
          await documents.push(shape(docs[k]!, null, true, vectors ? storedVectors(vectors, settings.embedders, docids[k]!) : undefined))
        }
      }
      await documents.close()
    }
    await tar.c({ gzip: true, file: partial, cwd: work, portable: true }, ['.'])
    await rename(partial, target)
    return target
  } finally {
    await rm(work, { recursive: true, force: true })
    await rm(partial, { force: true })
  }
}

async function writeKeys(store: Store, path: string): Promise<void> {
  const out = new Lines(path)
  for await (const [, value] of store.scan('keys')) await out.push(keyToDump(decode<StoredKey>(value)))
  await out.close()
}

async function writeBatches(store: Store, path: string): Promise<void> {
  const out = new Lines(path)
  for await (const [, value] of store.scan('batches')) await out.push(batchToDump(JSON.parse(value.toString('utf8')) as Batch))
  await out.close()
}

async function writeTasks(source: DumpSource, request: DumpRequest, dir: string): Promise<void> {
  const out = new Lines(join(dir, 'queue.jsonl'))
  for await (const [, value] of source.store.scan('tasks')) {
    let task = JSON.parse(value.toString('utf8')) as Task
    if (task.uid === request.task.uid) {
      // The dump lists itself as finished, or an import would run it again, as Meilisearch does.
      task = { ...task, status: 'succeeded', startedAt: request.startedAt, finishedAt: Date.now() * 1000, details: { dumpUid: request.uid } }
    }
    await out.push(taskToDump(task))
    const op = task.operation
    if (task.status === 'enqueued' && op.type === 'documentAdditionOrUpdate') {
      const documents = new Lines(join(dir, 'update_files', `${task.uid}.jsonl`))
      const stored = source.payloads.source(op.payload)
      for (const [start, end] of op.chunks) {
        for (const doc of await parsePayloadChunk({ ...stored, format: op.format, csvDelimiter: op.csvDelimiter, start, end, csvHeader: op.csvHeader })) await documents.push(doc)
      }
      await documents.close()
    }
  }
  await out.close()
}

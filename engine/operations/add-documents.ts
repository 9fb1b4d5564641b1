import type { Engine } from '../engine.js'
import { TesseraError } from '../errors/index.js'
import { runJob } from '../pool/jobs.js'
import type { EnqueuedTask, PayloadFormat } from '../tasks/types.js'
import { enqueue } from './enqueue.js'

/** What a document addition asks for, besides its payload. */
export interface DocumentAdditionRequest {
  /** `replace` (POST: a document replaces its previous version) or `update` (PUT: top-level fields merge). */
  method: 'replace' | 'update'
  format: PayloadFormat
  csvDelimiter: string
  primaryKey: string | null
  /** False with `skipCreation=true`. */
  allowIndexCreation: boolean
  /** `skipCreation=true`: documents whose id is not in the index yet are left out (only existing ones change). */
  skipCreation?: boolean
  customMetadata?: string
}

/**
 * `POST`/`PUT /indexes/{uid}/documents`: store the payload durably, validate it in the worker pool (count, chunk
 * boundaries, first fault), and register its task. A faulty payload is removed again and its error thrown:
 * nothing is registered.
 */
export async function addDocuments(engine: Engine, uid: string, body: AsyncIterable<Uint8Array>, request: DocumentAdditionRequest): Promise<EnqueuedTask> {
  const { name, bytes, copy, inline } = await engine.payloads.write(body)
  const path = engine.payloads.path(name)
  try {
    // A small payload is checked here, in memory: the hop to a worker would cost more than the check.
    const checked = await runJob(inline ? undefined : engine.pool, 'validatePayload', { path, ...(inline ? { bytes: inline } : {}), format: request.format, csvDelimiter: request.csvDelimiter })
    if (!checked.ok) throw new TesseraError(checked.code, checked.message)
    return await enqueue(engine, {
      type: 'documentAdditionOrUpdate', indexUid: uid,
      details: { receivedDocuments: checked.documents, indexedDocuments: null },
      operation: {
        type: 'documentAdditionOrUpdate', method: request.method, payload: name, bytes, format: request.format, csvDelimiter: request.csvDelimiter,
        primaryKey: request.primaryKey, allowIndexCreation: request.allowIndexCreation, chunks: checked.chunks, csvHeader: checked.csvHeader,
        ...(request.skipCreation ? { skipCreation: true } : {}),
      },
      customMetadata: request.customMetadata,
    }, copy ? [copy] : [])
  } catch (err) {
    await engine.payloads.remove(name)
    throw err
  }
}

/**
 * What each documents run sends, prepared before its clock starts: the payload bytes (in memory, or for the large
 * run in a scratch file, streamed from there: generating it while sending would cap the upload at the generator's
 * ~45 MB/s, below what the service accepts) and a few documents to read back afterwards.
 */
import { createReadStream, createWriteStream, rmSync } from 'node:fs'
import { once } from 'node:events'
import { join } from 'node:path'
import { generateDocuments, type BenchDocument } from '../../data/uniform-corpus.js'
import { generateShortDocuments } from '../../data/short-corpus.js'
import { postPayload, type Posted } from '../../harness/requests.js'
import type { BenchServer } from '../../harness/server.js'
import type { DocumentsOptions, DocumentsRunKind } from './options.js'
import { CONTENT_TYPES, buildNdjsonParts, buildPayload, expectedDocument, serialize, type PayloadFormat } from './payloads.js'

export interface Sent {
  format: PayloadFormat
  documents: number
  payloads: number
  bytes: number
  streamed: boolean
  /** Documents to read back, as the service should return them. */
  samples: Array<{ id: number; expected: Record<string, unknown> }>
  /** Starts the POSTs; resolves with each reply. */
  send(server: BenchServer, path: string, timeoutMs: number): Promise<Posted[]>
  /** Removes what was prepared (a scratch file). */
  dispose(): void
}

/** The ids whose documents are read back after a run: first, second, middle, last. */
function sampleIds(count: number): number[] {
  return [...new Set([0, 1, Math.floor(count / 2), count - 1])].filter((i) => i >= 0 && i < count)
}

export async function prepare(kind: DocumentsRunKind, options: DocumentsOptions, scratchDir: string): Promise<Sent> {
  switch (kind) {
    case 'json': case 'ndjson': case 'csv': {
      const { body, samples } = buildPayload(kind, options.documents, sampleIds(options.documents))
      return {
        format: kind, documents: options.documents, payloads: 1, bytes: body.length, streamed: false, dispose: () => {},
        samples: samples.map((doc) => ({ id: doc.id, expected: expectedDocument(doc, kind) })),
        send: async (server, path, timeoutMs) => [await postPayload(server, path, CONTENT_TYPES[kind], body, body.length, timeoutMs)],
      }
    }
    case 'ndjson-10x': {
      const per = Math.ceil(options.documents / options.concurrentPayloads)
      const { bodies, samples } = buildNdjsonParts(generateDocuments(options.documents), per, sampleIds(options.documents))
      return {
        format: 'ndjson', documents: options.documents, payloads: options.concurrentPayloads, bytes: bodies.reduce((n, b) => n + b.length, 0), streamed: false, dispose: () => {},
        samples: samples.map((doc) => ({ id: doc.id, expected: expectedDocument(doc, 'ndjson') })),
        send: (server, path, timeoutMs) => Promise.all(bodies.map((b) => postPayload(server, path, CONTENT_TYPES.ndjson, b, b.length, timeoutMs))),
      }
    }
    case 'ndjson-short': {
      const per = Math.ceil(options.shortDocuments / options.shortPayloads)
      const { bodies, samples } = buildNdjsonParts(generateShortDocuments(options.shortDocuments), per, sampleIds(options.shortDocuments))
      return {
        format: 'ndjson', documents: options.shortDocuments, payloads: bodies.length, bytes: bodies.reduce((n, b) => n + b.length, 0), streamed: false, dispose: () => {},
        samples: samples.map((doc) => ({ id: doc.id, expected: { ...doc } })),
        // Back to back: each payload goes once the previous one is accepted, without waiting for its task.
        send: async (server, path, timeoutMs) => {
          const replies: Posted[] = []
          for (const b of bodies) {
            const reply = await postPayload(server, path, CONTENT_TYPES.ndjson, b, b.length, timeoutMs)
            replies.push(reply)
            if (reply.status !== 202) break
          }
          return replies
        },
      }
    }
    case 'ndjson-large': {
      const count = options.largeDocuments
      const wanted = new Set(sampleIds(count))
      const samples: BenchDocument[] = []
      const file = join(scratchDir, `payload-${process.pid}-${Date.now()}.ndjson`)
      const out = createWriteStream(file)
      let bytes = 0
      try {
        const docs = function* () {
          for (const doc of generateDocuments(count)) {
            if (wanted.has(doc.id)) samples.push(doc)
            yield doc
          }
        }
        for (const piece of serialize('ndjson', docs(), 1000)) {
          bytes += Buffer.byteLength(piece, 'utf8')
          if (!out.write(piece)) await once(out, 'drain')
        }
        out.end()
        await once(out, 'finish')
      } catch (err) {
        out.destroy()
        rmSync(file, { force: true })
        throw err
      }
      return {
        format: 'ndjson', documents: count, payloads: 1, bytes, streamed: true,
        samples: samples.map((doc) => ({ id: doc.id, expected: expectedDocument(doc, 'ndjson') })),
        dispose: () => rmSync(file, { force: true }),
        send: async (server, path, timeoutMs) => [await postPayload(server, path, CONTENT_TYPES.ndjson, createReadStream(file, { highWaterMark: 1 << 20 }), bytes, timeoutMs)],
      }
    }
  }
}

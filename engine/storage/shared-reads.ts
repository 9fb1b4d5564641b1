/**
 * Documents read on another thread than the store's (a search thread): the database opened through the store's
 * handle, as the writer thread opens it (the same RocksDB instance, so every commit is seen; the binding's read-only
 * open would not see later ones), and reads trusted only through the store's fence (read-fence.ts). A read that
 * cannot be trusted answers null: the caller asks the store's thread instead.
 */
import { createRequire } from 'node:module'
import { ReadGate } from './read-fence.js'
import * as keys from './keys.js'

const require = createRequire(import.meta.url)
const { RocksLevel } = require('@nxtedition/rocksdb')

/** What the store hands out for such reads (Store.sharedReads), and the index's documents epoch taken with a view. */
export interface SharedReads {
  handle: unknown
  fence: Int32Array
  generation: number
}

/** The stored JSON texts back to back (`ends[k]`: where document k ends), as the search threads take them. */
export interface StoredTexts {
  bytes: Uint8Array
  ends: Uint32Array
}

export class SharedDocumentReader {
  private constructor(private readonly db: any, private readonly gate: ReadGate, readonly generation: number) {}

  /** Open the database through the handle. Never closed here: closing would close the store's own database. */
  static async open(reads: SharedReads): Promise<SharedDocumentReader> {
    const db = new RocksLevel(reads.handle, { keyEncoding: 'buffer', valueEncoding: 'buffer' })
    await db.open()
    return new SharedDocumentReader(db, new ReadGate(reads.fence), reads.generation)
  }

  /**
   * The stored documents `docids` of index `indexId` as of `epoch` (taken with the view that ranked them), or null
   * when that cannot be trusted (a commit to the index's documents since, the database closed or reopened) or a
   * document is missing (the index deleted meanwhile: the store's thread decides what that means).
   */
  read(indexId: number, epoch: number, docids: number[]): StoredTexts | null {
    const column = this.db.columns.documents
    const found = this.gate.readAt(indexId, epoch, this.generation, () =>
      this.db._getManySync(docids.map((d) => keys.indexKey(indexId, keys.u32(d))), { column }) as (Buffer | null | undefined)[])
    if (!found || found.some((v) => v == null)) return null
    return packTexts(found as Buffer[])
  }
}

/** Stored documents as one buffer and their ends: the form a search thread is handed them in, from either thread. */
export function packTexts(docs: readonly Uint8Array[]): StoredTexts {
  const ends = new Uint32Array(docs.length)
  const bytes = new Uint8Array(docs.reduce((n, d) => n + d.length, 0))
  let end = 0
  docs.forEach((d, k) => { bytes.set(d, end); end += d.length; ends[k] = end })
  return { bytes, ends }
}

/**
 * Payload files: a document payload is streamed to `<db-path>/payloads/<name>` as it arrives and made durable
 * before its task is registered, so a `202` means the payload is on disk too.
 *
 * Large payloads are fsynced (file and directory). Small ones (up to `INLINE_LIMIT`) are not: a copy goes into the
 * database with the task's registration, in the same group-committed write, so thousands of small concurrent
 * additions share fsyncs instead of paying two each; at start-up the file of every waiting small payload is
 * rewritten from its copy. Files and copies of finished tasks are removed; at start-up, whatever no waiting task
 * refers to (a crash between writing and registering) is swept.
 */
import { mkdirSync, readdirSync } from 'node:fs'
import { open, rename, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { randomUUID } from 'node:crypto'
import { keys, type Store, type WriteOp } from '../storage/index.js'

/** Payloads up to this size are made durable through the database rather than by fsyncing their file. */
export const INLINE_LIMIT = 256 * 1024

const COPY_PREFIX = 'payload/'
const copyKey = (name: string) => keys.utf8(COPY_PREFIX + name)

export interface WrittenPayload {
  name: string
  bytes: number
  /** For a small payload: the write that makes it durable, to commit with the task's registration. */
  copy: WriteOp | null
}

export class PayloadFiles {
  readonly dir: string

  constructor(dbPath: string, private readonly store: Store) {
    this.dir = join(dbPath, 'payloads')
    mkdirSync(this.dir, { recursive: true })
  }

  path(name: string): string {
    return join(this.dir, name)
  }

  /** Write `chunks` to a new payload file; removed again if the source fails. */
  async write(chunks: AsyncIterable<Uint8Array>): Promise<WrittenPayload> {
    const name = randomUUID()
    const temp = this.path(`${name}.partial`)
    const file = await open(temp, 'w')
    let bytes = 0
    let held: Uint8Array[] | null = []
    try {
      for await (const chunk of chunks) {
        await file.write(chunk)
        bytes += chunk.byteLength
        if (held && bytes <= INLINE_LIMIT) held.push(chunk)
        else held = null
      }
      if (!held) await file.sync()
    } catch (err) {
      await file.close().catch(() => {})
      await rm(temp, { force: true })
      throw err
    }
    await file.close()
    await rename(temp, this.path(name))
    if (held) return { name, bytes, copy: { column: 'default', key: copyKey(name), value: Buffer.concat(held) } }
    const dir = await open(this.dir, 'r')
    try { await dir.sync() } finally { await dir.close() }
    return { name, bytes, copy: null }
  }

  /** The write that drops a payload's database copy (if it has one), for the commit that finishes its task. */
  dropCopyOp(name: string): WriteOp {
    return { column: 'default', key: copyKey(name) }
  }

  /** Remove a payload's file, and its copy unless the caller's commit already dropped it (`dropCopyOp`). */
  async remove(name: string, copyDropped = false): Promise<void> {
    await rm(this.path(name), { force: true })
    if (!copyDropped && this.store.get('default', copyKey(name))) await this.store.commit([this.dropCopyOp(name)])
  }

  /**
   * At start-up: rewrite the files of waiting small payloads from their copies (they were never fsynced), and
   * remove every file and copy that no waiting task needs.
   */
  async recover(waiting: Set<string>): Promise<void> {
    const stale: WriteOp[] = []
    for await (const [key, value] of this.store.scan('default', { gte: keys.utf8(COPY_PREFIX), lt: keys.utf8('payload0') })) {
      const name = key.toString('utf8').slice(COPY_PREFIX.length)
      if (waiting.has(name)) await writeFile(this.path(name), value)
      else stale.push({ column: 'default', key })
    }
    await this.store.commit(stale)
    for (const name of readdirSync(this.dir)) if (!waiting.has(name)) await rm(this.path(name), { force: true })
  }
}

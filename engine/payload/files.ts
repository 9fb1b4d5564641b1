/**
 * Payloads: a document payload is streamed to `<db-path>/payloads/<name>` as it arrives and made durable before its
 * task is registered, so a `202` means the payload is on disk too.
 *
 * Large payloads are fsynced (file and directory). Small ones (up to `INLINE_LIMIT`) never become files: they are
 * held in memory, validated from there, and made durable by a copy in the database committed with the task's
 * registration, in the same group-committed write, so thousands of small concurrent additions share fsyncs and
 * cost no file operations; processing reads them from that copy (`source`). Copies and files of finished tasks are
 * removed; at start-up, whatever no waiting task refers to (a crash between writing and registering) is swept.
 */
import { mkdirSync, readdirSync } from 'node:fs'
import { open, rename, rm, type FileHandle } from 'node:fs/promises'
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
  /** For a small payload: its bytes (there is no file). */
  inline: Buffer | null
}

export class PayloadFiles {
  readonly dir: string
  /** Small payloads taken since the start: they have no file to remove. */
  private readonly inline = new Set<string>()

  constructor(dbPath: string, private readonly store: Store) {
    this.dir = join(dbPath, 'payloads')
    mkdirSync(this.dir, { recursive: true })
  }

  path(name: string): string {
    return join(this.dir, name)
  }

  /**
   * Take a payload from `chunks`: held in memory while it stays within INLINE_LIMIT, streamed to a new file (then
   * fsynced) once it grows past it. A file is removed again if the source fails.
   */
  async write(chunks: AsyncIterable<Uint8Array>): Promise<WrittenPayload> {
    const name = randomUUID()
    const temp = this.path(`${name}.partial`)
    let file: FileHandle | null = null
    let bytes = 0
    const held: Uint8Array[] = []
    try {
      for await (const chunk of chunks) {
        bytes += chunk.byteLength
        if (file === null && bytes <= INLINE_LIMIT) {
          held.push(chunk)
          continue
        }
        if (file === null) {
          file = await open(temp, 'w')
          for (const h of held) await file.write(h)
          held.length = 0
        }
        await file.write(chunk)
      }
      if (file !== null) await file.sync()
    } catch (err) {
      if (file !== null) {
        await file.close().catch(() => {})
        await rm(temp, { force: true })
      }
      throw err
    }
    if (file === null) {
      const inline = Buffer.concat(held)
      this.inline.add(name)
      return { name, bytes, copy: { column: 'default', key: copyKey(name), value: inline }, inline }
    }
    await file.close()
    await rename(temp, this.path(name))
    const dir = await open(this.dir, 'r')
    try { await dir.sync() } finally { await dir.close() }
    return { name, bytes, copy: null, inline: null }
  }

  /** Where to read a registered payload from: its database copy (a small payload), else its file. */
  source(name: string): { path: string; bytes?: Uint8Array } {
    const copy = this.store.get('default', copyKey(name))
    return copy ? { path: this.path(name), bytes: copy } : { path: this.path(name) }
  }

  /** The write that drops a payload's database copy (if it has one), for the commit that finishes its task. */
  dropCopyOp(name: string): WriteOp {
    return { column: 'default', key: copyKey(name) }
  }

  /** Remove a payload's file, and its copy unless the caller's commit already dropped it (`dropCopyOp`). */
  async remove(name: string, copyDropped = false): Promise<void> {
    // A payload taken in memory since the start has no file (one from before a restart may have one).
    if (!this.inline.delete(name)) await rm(this.path(name), { force: true })
    if (!copyDropped && this.store.get('default', copyKey(name))) await this.store.commit([this.dropCopyOp(name)])
  }

  /**
   * At start-up: remove every file and copy that no waiting task needs (waiting small payloads are read from their
   * copies; a file of one, written by an earlier version, is left alone).
   */
  async recover(waiting: Set<string>): Promise<void> {
    const stale: WriteOp[] = []
    for await (const [key] of this.store.scan('default', { gte: keys.utf8(COPY_PREFIX), lt: keys.utf8('payload0') })) {
      const name = key.toString('utf8').slice(COPY_PREFIX.length)
      if (!waiting.has(name)) stale.push({ column: 'default', key })
    }
    await this.store.commit(stale)
    for (const name of readdirSync(this.dir)) if (!waiting.has(name)) await rm(this.path(name), { force: true })
  }
}

/**
 * Payload files: a document payload is streamed to `<db-path>/payloads/<name>` as it arrives, fsynced and renamed
 * into place before its task is registered, so a `202` means the payload is on disk too. Files of finished tasks
 * are removed; at start-up, files no task refers to (a crash between writing and registering) are swept.
 */
import { mkdirSync, readdirSync } from 'node:fs'
import { open, rename, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { randomUUID } from 'node:crypto'

export class PayloadFiles {
  readonly dir: string

  constructor(dbPath: string) {
    this.dir = join(dbPath, 'payloads')
    mkdirSync(this.dir, { recursive: true })
  }

  path(name: string): string {
    return join(this.dir, name)
  }

  /** Write `chunks` to a new payload file, durably; removed again if the source fails. */
  async write(chunks: AsyncIterable<Uint8Array>): Promise<{ name: string; bytes: number }> {
    const name = randomUUID()
    const temp = this.path(`${name}.partial`)
    const file = await open(temp, 'w')
    let bytes = 0
    try {
      for await (const chunk of chunks) {
        await file.write(chunk)
        bytes += chunk.byteLength
      }
      await file.sync()
    } catch (err) {
      await file.close().catch(() => {})
      await rm(temp, { force: true })
      throw err
    }
    await file.close()
    await rename(temp, this.path(name))
    const dir = await open(this.dir, 'r')
    try { await dir.sync() } finally { await dir.close() }
    return { name, bytes }
  }

  async remove(name: string): Promise<void> {
    await rm(this.path(name), { force: true })
  }

  /** Remove every file not in `keep` (partial writes, payloads of tasks that no longer need them). */
  async sweep(keep: Set<string>): Promise<void> {
    for (const name of readdirSync(this.dir)) if (!keep.has(name)) await rm(this.path(name), { force: true })
  }
}

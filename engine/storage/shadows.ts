/**
 * The values a commit in flight replaces, kept for readers until the commit's effects are published (see
 * `Store.commitShadowed`): RocksDB applies a write as soon as the writer thread gets to it, but the in-memory views
 * that readers rank with change only when the batch publishes, so until then a reader must get the old value.
 *
 * Only writes a reader may read from disk are captured (`unread` writes, such as postings held in memory, are not).
 * Keys are compared by their hex form, per column.
 */
import type { Column, Write } from './columns.js'
import type { Steps } from '../util/turns.js'

/** Writes looked at between two points where the capture may pause. */
const STEP_WRITES = 4096

export class Shadows {
  /**
   * Capture the current value of each key `ops` write (read with `read`), as steps that may pause: the commit is
   * posted only after the capture ends, so a reader meanwhile reads the same old value from disk. Returns the
   * release, to call once the commit's effects are published (or the commit abandoned).
   */
  *capture(ops: readonly Write[], read: (column: Column, key: Uint8Array) => Buffer | undefined): Steps<() => void> {
    const captured: [Map<string, Buffer | undefined>, string][] = []
    for (let i = 0; i < ops.length; i++) {
      if ((i + 1) % STEP_WRITES === 0) yield
      const op = ops[i]!
      // A run's rows are unread (row-run.ts).
      if ('run' in op || op.unread) continue
      let shadow = this.byColumn.get(op.column)
      if (!shadow) this.byColumn.set(op.column, (shadow = new Map()))
      const hex = hexOf(op.key)
      if (shadow.has(hex)) continue
      shadow.set(hex, read(op.column, op.key))
      captured.push([shadow, hex])
    }
    return () => { for (const [shadow, hex] of captured) shadow.delete(hex) }
  }

  /** The old value of a key a commit in flight replaces (`{ value: undefined }`: it did not exist), else null. */
  of(column: Column, key: Uint8Array): { value: Buffer | undefined } | null {
    const shadow = this.byColumn.get(column)
    if (!shadow || shadow.size === 0) return null
    const hex = hexOf(key)
    return shadow.has(hex) ? { value: shadow.get(hex) } : null
  }

  private readonly byColumn = new Map<Column, Map<string, Buffer | undefined>>()
}

function hexOf(key: Uint8Array): string {
  return Buffer.from(key.buffer, key.byteOffset, key.byteLength).toString('hex')
}

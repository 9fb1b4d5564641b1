/**
 * Keys of the `workflows` column family. One byte says what a key is; the rest is laid out so that every listing
 * is one contiguous, ordered key range:
 *
 *   0x00 name                      → service value (the cursor secret, the next seq, the personal project's id)
 *   0x01 workflowId                → msgpack WorkflowRecord
 *   0x02 seq                       → workflowId        listing order of all workflows
 *   0x03 active(0|1) seq           → workflowId        ... of the active or the inactive ones
 *   0x04 len projectId seq         → workflowId        ... of one project's
 *   0x05 len tagId seq             → workflowId        ... of the ones carrying one tag
 *   0x10 tagId                     → msgpack TagRecord
 *   0x11 seq                       → tagId             listing order of tags
 *   0x12 name                      → tagId             tag names are unique
 *   0x20 projectId                 → msgpack ProjectRecord
 *   0x21 seq                       → projectId         listing order of projects
 *
 * `seq` is 8 bytes big-endian (byte order is numeric order); variable-length parts are prefixed with their length
 * (2 bytes) so that one project's or tag's range never runs into another's.
 */

const META = 0x00
const WORKFLOW = 0x01
const ORDER = 0x02
const ACTIVE = 0x03
const BY_PROJECT = 0x04
const BY_TAG = 0x05
const TAG = 0x10
const TAG_ORDER = 0x11
const TAG_NAME = 0x12
const PROJECT = 0x20
const PROJECT_ORDER = 0x21

const SEQ_BYTES = 8

function seqBytes(seq: number): Buffer {
  const b = Buffer.allocUnsafe(SEQ_BYTES)
  b.writeUInt32BE(Math.floor(seq / 2 ** 32), 0)
  b.writeUInt32BE(seq >>> 0, 4)
  return b
}

/** The seq at the end of an index key. */
export function seqOf(key: Uint8Array): number {
  const b = Buffer.from(key.buffer, key.byteOffset, key.byteLength)
  return b.readUInt32BE(b.length - SEQ_BYTES) * 2 ** 32 + b.readUInt32BE(b.length - 4)
}

function tagged(tag: number, ...parts: Uint8Array[]): Buffer {
  return Buffer.concat([Buffer.of(tag), ...parts])
}

function sized(text: string): Buffer {
  const body = Buffer.from(text, 'utf8')
  const len = Buffer.allocUnsafe(2)
  len.writeUInt16BE(Math.min(body.length, 0xffff))
  return Buffer.concat([len, body.subarray(0, 0xffff)])
}

/**
 * An ordered index: a key prefix under which entries are `prefix ‖ seq → id`. Listings walk these; writes put and
 * delete their entries (`entry`).
 */
export interface IndexRange {
  prefix: Buffer
}

export const layout = {
  meta: (name: string) => tagged(META, Buffer.from(name, 'utf8')),
  workflow: (id: string) => tagged(WORKFLOW, Buffer.from(id, 'utf8')),
  tag: (id: string) => tagged(TAG, Buffer.from(id, 'utf8')),
  tagName: (name: string) => tagged(TAG_NAME, Buffer.from(name, 'utf8')),
  project: (id: string) => tagged(PROJECT, Buffer.from(id, 'utf8')),

  allWorkflows: (): IndexRange => ({ prefix: Buffer.of(ORDER) }),
  activeWorkflows: (active: boolean): IndexRange => ({ prefix: Buffer.of(ACTIVE, active ? 1 : 0) }),
  projectWorkflows: (projectId: string): IndexRange => ({ prefix: tagged(BY_PROJECT, sized(projectId)) }),
  taggedWorkflows: (tagId: string): IndexRange => ({ prefix: tagged(BY_TAG, sized(tagId)) }),
  allTags: (): IndexRange => ({ prefix: Buffer.of(TAG_ORDER) }),
  allProjects: (): IndexRange => ({ prefix: Buffer.of(PROJECT_ORDER) }),

  /** The key of the entry for `seq` in `index`. */
  entry: (index: IndexRange, seq: number): Buffer => Buffer.concat([index.prefix, seqBytes(seq)]),
}

/** The first key after every key that starts with `prefix` (the exclusive end of its range). */
export function rangeEnd(prefix: Buffer): Buffer {
  const end = Buffer.from(prefix)
  for (let i = end.length - 1; i >= 0; i--) {
    if (end[i]! < 0xff) {
      end[i] = end[i]! + 1
      return end.subarray(0, i + 1)
    }
  }
  return Buffer.alloc(prefix.length + 1, 0xff)
}

/**
 * Large payloads (those kept as files, past INLINE_LIMIT) travel through a JetStream object store bucket: the node
 * that took one puts its file before publishing the task, and every other node copies it back to a local payload
 * file, made durable before the task registers (as a single node makes it durable before its `202`).
 */
import { createReadStream, existsSync, statSync } from 'node:fs'
import { open, rename, rm } from 'node:fs/promises'
import { dirname } from 'node:path'
import { Readable } from 'node:stream'
import type { ObjectStore } from '@nats-io/obj'

export async function putPayload(bucket: ObjectStore, name: string, path: string): Promise<void> {
  const web = Readable.toWeb(createReadStream(path)) as unknown as ReadableStream<Uint8Array>
  await bucket.put({ name }, web)
}

/**
 * Copy object `name` to `path` (fsynced, with its directory), unless a file of `bytes` bytes is already there (the
 * node that took the payload, or a copy made before a crash). False when the bucket has no such object.
 */
export async function fetchPayload(bucket: ObjectStore, name: string, path: string, bytes: number): Promise<boolean> {
  if (existsSync(path) && statSync(path).size === bytes) return true
  const result = await bucket.get(name)
  if (!result) return false
  const temp = `${path}.partial`
  const file = await open(temp, 'w')
  try {
    for await (const chunk of result.data) await file.write(chunk)
    const failure = await result.error
    if (failure) throw failure
    await file.sync()
  } catch (err) {
    await file.close().catch(() => {})
    await rm(temp, { force: true })
    throw err
  }
  await file.close()
  await rename(temp, path)
  const dir = await open(dirname(path), 'r')
  try { await dir.sync() } finally { await dir.close() }
  return true
}

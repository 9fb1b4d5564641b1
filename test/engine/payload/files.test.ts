/** Payload intake: small payloads stay in memory and in the database (no file), large ones become fsynced files. */
import t from 'tap'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Store } from '../../../engine/storage/index.js'
import { INLINE_LIMIT, PayloadFiles } from '../../../engine/payload/files.js'

async function* pieces(body: Buffer, size: number): AsyncIterable<Uint8Array> {
  for (let i = 0; i < body.length; i += size) yield body.subarray(i, i + size)
}

t.test('a small payload has no file: it is read from the copy committed with its task', async (t) => {
  const path = mkdtempSync(join(tmpdir(), 'tessera-payload-files-'))
  const store = await Store.open(path)
  t.teardown(async () => { await store.close(); rmSync(path, { recursive: true, force: true }) })
  const files = new PayloadFiles(path, store)
  const body = Buffer.from('{"id":1,"title":"a"}\n'.repeat(100))
  const written = await files.write(pieces(body, 7))
  t.equal(written.bytes, body.length)
  t.same(written.inline, body, 'held in memory whole')
  t.ok(written.copy, 'with the copy that makes it durable')
  t.same(readdirSync(files.dir), [], 'no file written, not even a partial one')
  await store.commit([written.copy!])
  const source = files.source(written.name)
  t.same(Buffer.from(source.bytes!), body, 'processing reads the copy')
  await files.remove(written.name)
  t.equal(store.get('default', written.copy!.key), undefined, 'removing it drops the copy')
})

t.test('a payload past INLINE_LIMIT streams to a file, whatever the piece sizes', async (t) => {
  const path = mkdtempSync(join(tmpdir(), 'tessera-payload-files-'))
  const store = await Store.open(path)
  t.teardown(async () => { await store.close(); rmSync(path, { recursive: true, force: true }) })
  const files = new PayloadFiles(path, store)
  for (const [n, body] of [Buffer.alloc(INLINE_LIMIT + 1, 0x61), Buffer.alloc(3 * INLINE_LIMIT, 0x62)].entries()) {
    const written = await files.write(pieces(body, n === 0 ? 1000 : INLINE_LIMIT + 7))
    t.equal(written.inline, null)
    t.equal(written.copy, null)
    t.same(readFileSync(files.path(written.name)), body, 'the file holds every byte, the held ones first')
    t.equal(files.source(written.name).bytes, undefined, 'read from its file')
    await files.remove(written.name)
    t.notOk(existsSync(files.path(written.name)))
  }
})

t.test('a source that fails mid-payload leaves nothing behind', async (t) => {
  const path = mkdtempSync(join(tmpdir(), 'tessera-payload-files-'))
  const store = await Store.open(path)
  t.teardown(async () => { await store.close(); rmSync(path, { recursive: true, force: true }) })
  const files = new PayloadFiles(path, store)
  for (const size of [100, 2 * INLINE_LIMIT]) {
    async function* failing(): AsyncIterable<Uint8Array> {
      yield Buffer.alloc(size, 0x63)
      throw new Error('client went away')
    }
    await t.rejects(files.write(failing()), /client went away/)
    t.same(readdirSync(files.dir), [], `${size} bytes then a failure: no file`)
  }
})

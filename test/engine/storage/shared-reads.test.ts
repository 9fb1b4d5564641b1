/**
 * Documents read on another thread through the store's handle (storage/shared-reads.ts, read-fence.ts): a read is
 * trusted only while no commit to the index's documents is in flight or happened since the epoch it was given, the
 * database is open, and its opening is the one the reader's handle is of; a worker thread reads what the store
 * committed; a missing document makes the read fall back.
 */
import t from 'tap'
import { Worker } from 'node:worker_threads'
import { Store, keys } from '../../../engine/storage/index.js'
import { ReadFence, ReadGate } from '../../../engine/storage/read-fence.js'
import { SharedDocumentReader } from '../../../engine/storage/shared-reads.js'
import { siblingModule } from '../../../engine/util/module-path.js'
import { dataDir } from '../../helpers/engine.js'

const doc = (indexId: number, docid: number, text: string) => ({ column: 'documents' as const, key: keys.indexKey(indexId, keys.u32(docid)), value: Buffer.from(text) })
const texts = (read: { bytes: Uint8Array; ends: Uint32Array } | null) =>
  read && Array.from(read.ends, (end, k) => Buffer.from(read.bytes.subarray(k === 0 ? 0 : read.ends[k - 1]!, end)).toString())

t.test('the fence: epochs, a commit in flight, closing and reopening', async (t) => {
  const fence = new ReadFence()
  const gate = new ReadGate(fence.shared)
  const generation = fence.generation
  const epoch = fence.epoch(7)
  t.equal(epoch % 2, 0, 'even: no commit in flight')
  t.equal(gate.readAt(7, epoch, generation, () => 'read'), 'read')

  const done = fence.writing([doc(7, 1, 'x'), doc(7, 2, 'y'), { column: 'postings', key: keys.indexKey(8, 'w'), value: Buffer.from('') }])
  t.equal(fence.epoch(7) % 2, 1, "odd while a commit writes index 7's documents")
  t.equal(fence.epoch(8), 0, 'an index whose documents it does not write keeps its epoch')
  t.equal(gate.readAt(7, epoch, generation, () => 'read'), null, 'a read with the epoch taken before the commit is not trusted')
  t.equal(gate.readAt(7, fence.epoch(7), generation, () => 'read'), null, 'nor one with an odd epoch')
  done()
  done()
  t.equal(fence.epoch(7), epoch + 2, 'even again once released (once)')
  t.equal(gate.readAt(7, epoch, generation, () => 'read'), null, 'the old epoch is not trusted after it')
  const now = fence.epoch(7)
  t.equal(gate.readAt(7, now, generation, () => 'read'), 'read')

  let inside = ''
  t.equal(gate.readAt(7, now, generation, () => { const release = fence.writing([doc(7, 1, 'z')]); inside = 'bumped'; release(); return 'read' }), null,
    'a commit that starts during the read makes it untrusted')
  t.equal(inside, 'bumped')

  fence.close()
  t.equal(gate.readAt(7, fence.epoch(7), generation, () => 'read'), null, 'no read once the database is closing')
  fence.reopened()
  t.equal(gate.readAt(7, fence.epoch(7), generation, () => 'read'), null, 'nor through the handle of the opening before')
  t.equal(gate.readAt(7, fence.epoch(7), fence.generation, () => 'read'), 'read', 'the new handle is read')
})

t.test('a reader on the store handle: committed documents, a commit in flight, a missing document', async (t) => {
  const store = await Store.open(dataDir(t))
  t.teardown(() => store.close())
  await store.commit([doc(3, 1, 'one'), doc(3, 2, 'two'), doc(4, 1, 'other')])
  const reads = store.sharedReads!
  const reader = await SharedDocumentReader.open(reads)
  t.same(texts(reader.read(3, store.fence.epoch(3), [2, 1])), ['two', 'one'], 'read through the handle')
  t.equal(reader.read(3, store.fence.epoch(3), [1, 9]), null, 'a missing document: the store thread decides')

  const epoch = store.fence.epoch(3)
  const commit = await store.commitShadowed([doc(3, 1, 'ONE')])
  t.equal(reader.read(3, epoch, [1]), null, 'not trusted while the commit is in flight')
  t.same(texts(reader.read(4, store.fence.epoch(4), [1])), ['other'], 'another index is read meanwhile')
  await commit.done
  t.equal(store.get('documents', keys.indexKey(3, keys.u32(1)))!.toString(), 'one', 'the store thread still serves the replaced value')
  t.equal(reader.read(3, epoch, [1]), null, 'so the reader, with the epoch of that view, does not read the new one')
  commit.release()
  t.same(texts(reader.read(3, store.fence.epoch(3), [1])), ['ONE'], 'the new value with the epoch after the release')
})

t.test('a worker thread reads the documents through the handle', async (t) => {
  const store = await Store.open(dataDir(t))
  t.teardown(() => store.close())
  await store.commit([doc(5, 1, 'shared'), doc(5, 2, 'read')])
  const worker = new Worker(siblingModule(import.meta.url, './shared-reads-thread'), { workerData: { reads: store.sharedReads, epoch: store.fence.epoch(5) } })
  const answer = await new Promise((resolve, reject) => { worker.once('message', resolve); worker.once('error', reject) })
  t.equal(answer, 'sharedread')
  await worker.terminate()
  t.equal(store.get('documents', keys.indexKey(5, keys.u32(1)))!.toString(), 'shared', 'the store is still open after the thread ended')
})

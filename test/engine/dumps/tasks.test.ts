/** Task lines of a v6 dump: Meilisearch's `TaskDump` shape written, Tessera's record read back, Meilisearch's translated. */
import t from 'tap'
import { taskFromDump, taskToDump } from '../../../engine/dumps/tasks.js'
import { UnreadableImport } from '../../../engine/dumps/errors.js'
import { keyFromDump, keyToDump } from '../../../engine/dumps/records.js'
import type { Task } from '../../../engine/tasks/types.js'

/** Whether `run` throws an UnreadableImport (tap's `throws` matches an error's fields, not its class). */
function isUnreadable(run: () => unknown): boolean {
  try { run() } catch (err) { return err instanceof UnreadableImport }
  return false
}

const base = { batchUid: 3, indexUid: 'movies', canceledBy: null, error: null, enqueuedAt: 1_700_000_000_000_001, startedAt: 1_700_000_000_100_000, finishedAt: 1_700_000_001_000_000 }

t.test('a task is written in Meilisearch\'s shape and read back exactly', async (t) => {
  const task: Task = {
    ...base, uid: 7, status: 'succeeded', type: 'documentDeletion', details: { providedIds: 2, deletedDocuments: 1 },
    operation: { type: 'documentDeletion', ids: ['a', 'b'] }, customMetadata: 'import-42',
  }
  const line = JSON.parse(JSON.stringify(taskToDump(task)))
  t.same(Object.keys(line), ['uid', 'batchUid', 'indexUid', 'status', 'type', 'details', 'enqueuedAt', 'startedAt', 'finishedAt', 'tessera'])
  t.same(line.type, { documentDeletion: { documents_ids: ['a', 'b'] } })
  t.same(line.details, { DocumentDeletion: { provided_ids: 2, deleted_documents: 1 } })
  t.equal(line.enqueuedAt, '2023-11-14T22:13:20.000001Z')
  t.same(taskFromDump(line), task)
})

t.test('Meilisearch\'s kinds and details are translated', async (t) => {
  const line = (type: unknown, details?: unknown, status = 'succeeded') => ({ uid: 1, batchUid: 0, indexUid: 'i', status, type, ...(details ? { details } : {}), enqueuedAt: '2024-01-01T00:00:00Z', startedAt: '2024-01-01T00:00:01Z', finishedAt: '2024-01-01T00:00:02.000003Z' })
  t.match(taskFromDump(line('documentClear', { ClearAll: { deleted_documents: 4 } })), { type: 'documentDeletion', operation: { clear: true }, details: { deletedDocuments: 4 }, finishedAt: 1704067202000003 })
  t.match(taskFromDump(line({ documentDeletionByFilter: { filter: 'a = 1' } }, { DocumentDeletionByFilter: { original_filter: '"a = 1"', deleted_documents: 0 } })), { type: 'documentDeletion', operation: { filter: 'a = 1' }, details: { originalFilter: '"a = 1"', deletedDocuments: 0 } })
  t.match(taskFromDump(line({ indexSwap: { swaps: [{ indexes: ['a', 'b'] }] } }, { IndexSwap: { swaps: [{ indexes: ['a', 'b'] }] } })), { type: 'indexSwap', operation: { swaps: [{ indexes: ['a', 'b'], rename: false }] } })
  t.match(taskFromDump(line({ tasksDeletion: { query: '?uids=0', tasks: [58, 48, 0, 0] } }, { TaskDeletion: { matched_tasks: 1, deleted_tasks: 1, original_filter: '?uids=0' } })), { type: 'taskDeletion', details: { matchedTasks: 1, deletedTasks: 1, originalFilter: '?uids=0' } })
  t.match(taskFromDump(line({ dumpCreation: { keys: [], instance_uid: null } }, { Dump: { dump_uid: '20240101-000000000' } })), { type: 'dumpCreation', details: { dumpUid: '20240101-000000000' } })
  t.match(taskFromDump(line('snapshotCreation')), { type: 'snapshotCreation', details: null })
  t.match(taskFromDump(line({ upgradeDatabase: { from: [1, 12, 0] } }, { UpgradeDatabase: { from: [1, 12, 0], to: [1, 13, 0] } })), { type: 'upgradeDatabase' })
})

t.test('a malformed line is an UnreadableImport', async (t) => {
  t.ok(isUnreadable(() => taskFromDump('x')))
  t.ok(isUnreadable(() => taskFromDump({ uid: -1, status: 'succeeded', type: 'snapshotCreation', enqueuedAt: '2024-01-01T00:00:00Z' })))
  t.ok(isUnreadable(() => taskFromDump({ uid: 1, status: 'done', type: 'snapshotCreation', enqueuedAt: '2024-01-01T00:00:00Z' })))
  t.throws(() => taskFromDump({ uid: 1, status: 'enqueued', type: { teleport: {} }, enqueuedAt: '2024-01-01T00:00:00Z' }), /unknown type/)
  t.throws(() => taskFromDump({ uid: 1, status: 'enqueued', type: 'snapshotCreation', enqueuedAt: 'yesterday' }), /not an RFC 3339 date/)
})

t.test('keys keep their expiry offset and never their value', async (t) => {
  const key = { uid: '9f8a34da-b6b2-42f0-939b-dbd4c3448655', name: null, description: 'd', actions: ['search'], indexes: ['a*'], expiresAt: { at: Date.UTC(2090, 0, 1) * 1000, offsetMinutes: -90 }, createdAt: 1_700_000_000_000_000, updatedAt: 1_700_000_000_000_000 }
  const line = keyToDump(key)
  t.same(Object.keys(line), ['description', 'uid', 'actions', 'indexes', 'expires_at', 'created_at', 'updated_at'])
  t.equal(line.expires_at, '2089-12-31T22:30:00-01:30')
  t.same(keyFromDump(line), key)
  t.ok(isUnreadable(() => keyFromDump({ ...line, uid: 'nope' })))
})

/** The replicated log's entries: tasks round-trip exactly (user-named keys too), payload bytes too; unreadable entries throw. */
import t from 'tap'
import { pack } from 'msgpackr'
import { decodeEntry, encodeChange, encodeEntry, encodeOpening, type ChangeEntry, type LogEntry } from '../../../engine/cluster/entry.js'

t.test('an entry round-trips', async (t) => {
  const details = JSON.parse('{"__proto__": {"x": 1}, "plain": [1, "two", null]}')
  const entry: LogEntry = {
    task: { type: 'settingsUpdate', indexUid: 'movies', details, operation: { type: 'settingsUpdate', update: details }, customMetadata: 'meta' } as any,
    enqueuedAt: 1_790_000_000_123_456,
    ops: [{ column: 'default', key: Buffer.from('payload/p'), value: Buffer.from([0, 1, 2, 255]) }, { column: 'meta', key: Buffer.from('gone') }],
    object: { name: 'big', bytes: 1 << 20 },
  }
  const back = decodeEntry(encodeEntry(entry)) as LogEntry
  t.same(back, entry)
  t.same(Object.keys(back.task.details as object), ['__proto__', 'plain'], 'a user-named __proto__ key stays a key')
  t.notOk('value' in back.ops[1]!, 'a deletion stays a deletion')
})

t.test('a change of instance state round-trips, with its origin', async (t) => {
  const change: ChangeEntry = { change: { kind: 'network', body: JSON.parse('{"patch": {"remotes": {"__proto__": {"url": "http://a"}}}, "version": "v"}') }, origin: 'node-1' }
  const back = decodeEntry(encodeChange(change)) as ChangeEntry
  t.same(back, change)
  t.same(Object.keys((back.change.body as any).patch.remotes), ['__proto__'], 'a remote named __proto__ stays a key')
  t.throws(() => decodeEntry(pack({ v: 2, origin: 'x' })), /a change without its body/)
})

t.test('a change carries its enqueue time; an opening its position', async (t) => {
  const change: ChangeEntry = { change: { kind: 'features', body: { network: true } }, origin: 'node-1', enqueuedAt: 1_790_000_000_000_001 }
  t.same(decodeEntry(encodeChange(change)), change)
  t.same(decodeEntry(encodeOpening(41)), { opening: 41 })
  t.throws(() => decodeEntry(pack({ v: 3 })), /an opening without its position/)
})

t.test('entries this version cannot read are refused', async (t) => {
  t.throws(() => decodeEntry(pack({ v: 4, task: '{}', enqueuedAt: 0, ops: [], object: null })), /unreadable task log entry \(version 4\)/)
  t.throws(() => decodeEntry(pack('hello')), /unreadable task log entry/)
  t.throws(() => decodeEntry(pack({ v: 1, task: '{}', enqueuedAt: 0, ops: [['nowhere', Buffer.from('k'), null]], object: null })), /unknown column nowhere/)
})

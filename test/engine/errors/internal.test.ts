/** An internal failure (the file system, RocksDB, a bug) tells the client nothing of its cause; the log has it. */
import t from 'tap'
import { TesseraError, toErrorObject, statusOf } from '../../../engine/errors/index.js'
import { errorResponse } from '../../../src/http/json.js'

t.test('a failure that is not a TesseraError answers a generic internal error with a reference in the log', async (t) => {
  const logged: string[] = []
  const cause = Object.assign(new Error('IO error: While open a file for appending: /var/lib/secret/db/000123.log: Permission denied'), { code: 'EACCES' })
  const res = errorResponse(cause, (line) => logged.push(line))
  t.equal(res.status, 500)
  const body = JSON.parse(String(res.body))
  t.equal(body.code, 'internal')
  t.equal(body.type, 'internal')
  t.notMatch(body.message, /secret|Permission|IO error/, 'nothing of the cause reaches the client')
  const reference = /reference `([0-9a-f]{8})`/.exec(body.message)?.[1]
  t.ok(reference, 'the message quotes a reference')
  t.equal(logged.length, 1)
  t.match(logged[0], reference!, 'the log line carries the same reference')
  t.match(logged[0], /Permission denied/, 'and the cause')
})

t.test('TesseraErrors and the system codes keep their messages and statuses', async (t) => {
  const err = new TesseraError('index_not_found', 'Index `x` not found.', 400)
  t.same(toErrorObject(err).message, 'Index `x` not found.')
  t.equal(statusOf(err, toErrorObject(err)), 400, 'a status override is kept')
  t.equal(toErrorObject(Object.assign(new Error('disk full'), { code: 'ENOSPC' })).code, 'no_space_left_on_device')
  // As RocksDB words it (seen on a full tmpfs, issue 17): no errno code, only the message.
  const rocks = new Error('IO error: No space left on device: While appending to file: /data/db/000004.log: No space left on device')
  t.equal(toErrorObject(rocks).code, 'no_space_left_on_device')
  t.equal(statusOf(rocks, toErrorObject(rocks)), 422, 'Meilisearch answers 422')
})

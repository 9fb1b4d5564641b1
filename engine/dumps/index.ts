/**
 * Dumps: `createDump` registers a `dumpCreation` task (the dump is written when it runs, see batch.ts and
 * write.ts); `importDump` builds a data directory from a v6 dump file (import.ts).
 */
import type { Engine } from '../engine.js'
import type { EnqueuedTask } from '../tasks/types.js'
import { enqueue } from '../operations/enqueue.js'

export { importDump, type DumpImportOptions } from './import.js'
export { BadDump } from './errors.js'
export { DEFAULT_DUMP_DIR } from './batch.js'

/** `POST /dumps`: the task's `dumpUid` is null until the dump is written. */
export function createDump(engine: Engine): Promise<EnqueuedTask> {
  return enqueue(engine, { type: 'dumpCreation', indexUid: null, details: { dumpUid: null }, operation: { type: 'dumpCreation' } })
}

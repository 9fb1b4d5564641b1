/**
 * Read-your-writes: wait until task `uid` is finished on this node (registered from the log and processed), so a
 * read that follows sees its effect. Bounded: past `timeoutMs` the read is refused with `task_not_applied` rather
 * than answered from an older state. A task that does not exist anywhere yet waits too (it may still be on its way
 * from the log).
 */
import type { Engine } from '../engine.js'
import { TesseraError } from '../errors/index.js'

const POLL_MS = 5
const FINISHED = new Set(['succeeded', 'failed', 'canceled'])

export async function waitForTask(engine: Engine, uid: number, timeoutMs: number): Promise<void> {
  const deadline = performance.now() + timeoutMs
  for (;;) {
    const task = uid < engine.queue.nextTaskUid ? engine.queue.get(uid) : undefined
    // A task deleted since (`taskDeletion`) was finished before it could be deleted.
    if ((task && FINISHED.has(task.status)) || (!task && uid < engine.queue.nextTaskUid)) return
    if (performance.now() >= deadline) {
      throw new TesseraError('task_not_applied', `Task ${uid} is not applied on this node after ${timeoutMs} ms; its effect may not be visible yet. Retry, or read from another node.`)
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS))
  }
}

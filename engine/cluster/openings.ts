/**
 * "Opened through uid" entries of the replicated log (cluster mode): a node batches a task only once an opening
 * covering its uid is registered here, and a cancelation cancels only the tasks it names that no opening before it
 * covered (cluster/applier.ts stamps its place, scheduler/cancelation.ts reads it). Every node sees the same entries
 * in the same order, so a cancelation is decided at the same log place on every node: a task opened before it runs
 * everywhere (its batch is never aborted by it), one not opened is canceled everywhere. Without this, a node that had
 * already finished a task kept it while a slower one canceled it, and replicas differed.
 *
 * A node asks for an opening when it wants to batch tasks past the opened position (through the last uid of the
 * batch it would take, so later tasks stay cancelable). Nodes asking for the same position publish the same message
 * id, which the stream stores once. An opening takes a place in the log, hence a task uid no task has.
 */
import { keys, type Store, type WriteOp } from '../storage/index.js'

const STORE_KEY = keys.utf8('clusterOpenedThrough')
/** How long a node waits for its opening to come back through the log before it tries again. */
const OPEN_WAIT_MS = 15_000

export type PublishOpening = (through: number) => Promise<void>

export class Openings {
  /** The highest uid opened so far (-1: none). */
  through: number
  private readonly waiters: { through: number; resolve: () => void }[] = []
  /** Set once the log is connected (cluster/jetstream-log.ts). */
  publish: PublishOpening | null = null

  constructor(store: Store) {
    const raw = store.get('meta', STORE_KEY)
    this.through = raw ? Number(Buffer.from(raw).toString('utf8')) : -1
  }

  /** The write recording an opening, made with the entry's place in the log (queue.skipReplicated). */
  op(through: number): WriteOp {
    return { column: 'meta', key: STORE_KEY, value: Buffer.from(String(Math.max(this.through, through))) }
  }

  /** An opening is registered here (durably): tasks up to `through` may be batched. */
  registered(through: number): void {
    if (through <= this.through) return
    this.through = through
    for (let i = this.waiters.length - 1; i >= 0; i--) {
      if (this.waiters[i]!.through <= through) this.waiters.splice(i, 1)[0]!.resolve()
    }
  }

  /**
   * Ask the log to open tasks up to `through`; resolves once an opening covering it is registered here. Rejects when
   * it could not be published, or did not come back within OPEN_WAIT_MS (the scheduler tries again later).
   */
  async open(through: number): Promise<void> {
    if (through <= this.through) return
    if (!this.publish) throw new Error('the task log is not connected')
    let waiter!: { through: number; resolve: () => void }
    const registered = new Promise<void>((resolve) => { waiter = { through, resolve }; this.waiters.push(waiter) })
    let timer: NodeJS.Timeout | undefined
    try {
      await this.publish(through)
      await Promise.race([registered, new Promise<never>((_, reject) => { timer = setTimeout(() => reject(new Error(`the opening through task ${through} was not applied within ${OPEN_WAIT_MS / 1000} s`)), OPEN_WAIT_MS) })])
    } finally {
      clearTimeout(timer)
      const at = this.waiters.indexOf(waiter)
      if (at >= 0) this.waiters.splice(at, 1)
    }
  }
}

/**
 * The replicated task log on NATS JetStream. A write publishes its entry to the stream with a message id (a retry
 * after a lost acknowledgement is de-duplicated by the stream) and is acknowledged once the stream stored it on a
 * quorum of its replicas; the task's uid is the entry's sequence minus one, so uids are cluster-wide, monotonic and
 * never reused. The answer waits for this node to register the task (so `GET /tasks/{uid}` right after a `202`
 * finds it on the node that answered).
 */
import { randomUUID } from 'node:crypto'
import { existsSync, statSync } from 'node:fs'
import type { JetStreamClient } from '@nats-io/jetstream'
import type { ObjectStore } from '@nats-io/obj'
import { TesseraError } from '../errors/index.js'
import type { WriteOp } from '../storage/index.js'
import { enqueuedTask, type NewTask } from '../tasks/queue.js'
import type { TaskLog } from '../tasks/task-log.js'
import type { Task } from '../tasks/types.js'
import { nowMicros } from '../tasks/time.js'
import type { PayloadFiles } from '../payload/files.js'
import { encodeChange, encodeEntry, encodeOpening } from './entry.js'
import type { StateKind, StateReplicator } from '../tasks/state-changes.js'
import type { LogApplier } from './applier.js'
import { putPayload } from './payload-objects.js'

/**
 * How long one publish waits for the stream's acknowledgement, and the pause after a failed attempt; a write keeps
 * trying (same message id) until `publishDeadlineMs` (options.ts). Losing a server makes publishes fail at once
 * ("no responders") until the stream has a new leader, a few seconds: a write waits through that rather than fail.
 */
const PUBLISH_TIMEOUT_MS = 5_000
const PUBLISH_PAUSE_MS = 250

export interface JetStreamLogParts {
  js: JetStreamClient
  bucket: ObjectStore
  subject: string
  /** The largest message the servers take: an entry past it is refused (see `append`). */
  maxPayload: number
  payloads: PayloadFiles
  applier: LogApplier
  registerWaitMs: number
  publishDeadlineMs: number
  /** The `origin` of the changes this node publishes (the applier knows its own by it). */
  nodeId: string
  close: () => Promise<void>
}

export class JetStreamTaskLog implements TaskLog, StateReplicator {
  constructor(private readonly parts: JetStreamLogParts) {}

  /**
   * A change of the network, the features or the keys: published like a task, applied by every node in log order;
   * the answer is what it came to on this node (applied, or refused alike on every node).
   */
  async replicate(kind: StateKind, body: unknown): Promise<unknown> {
    const { applier, subject, nodeId } = this.parts
    if (applier.failure) throw unavailable(`this node stopped applying the task log (${applier.failure.message})`, 'change')
    const sequence = await this.publish(subject, encodeChange({ change: { kind, body }, origin: nodeId, enqueuedAt: nowMicros() }), 'change')
    const outcome = await applier.changed(sequence - 1, this.parts.registerWaitMs)
    if (outcome === null) throw unavailable(`it is in the log but was not applied on this node within ${this.parts.registerWaitMs / 1000} s; it will be`, 'change')
    if ('error' in outcome) throw outcome.error
    return outcome.value
  }

  async append(spec: NewTask, withOps: WriteOp[]): Promise<Task> {
    const { js, bucket, subject, payloads, applier } = this.parts
    if (applier.failure) throw unavailable(`this node stopped applying the task log (${applier.failure.message})`)
    let object: { name: string; bytes: number } | null = null
    const op = spec.operation
    // A payload past INLINE_LIMIT has a file (a small one has its copy among `withOps`): it goes to the bucket first.
    if (op.type === 'documentAdditionOrUpdate' && existsSync(payloads.path(op.payload))) {
      try {
        await putPayload(bucket, op.payload, payloads.path(op.payload))
      } catch (err) {
        throw unavailable(`the payload could not be stored in the cluster (${(err as Error).message})`)
      }
      object = { name: op.payload, bytes: op.bytes ?? statSync(payloads.path(op.payload)).size }
    }
    const enqueuedAt = nowMicros()
    const data = encodeEntry({ task: spec, enqueuedAt, ops: withOps, object })
    if (data.byteLength > this.parts.maxPayload) {
      throw new TesseraError('payload_too_large', `The task is ${data.byteLength} bytes once encoded for the cluster's task log, more than the ${this.parts.maxPayload} bytes a NATS message may hold.`)
    }
    const sequence = await this.publish(subject, data)
    const uid = sequence - 1
    return (await applier.registered(uid, this.parts.registerWaitMs)) ?? enqueuedTask(spec, uid, enqueuedAt)
  }

  /**
   * An opening through `through` (openings.ts): nodes asking for the same position use the same message id, so the
   * stream stores it once (within its duplicate window).
   */
  async publishOpening(through: number): Promise<void> {
    await this.publish(this.parts.subject, encodeOpening(through), 'opening', `${this.parts.subject}.open.${through}`)
  }

  /** Publish with one message id across attempts: an entry stored but whose acknowledgement was lost is not stored twice. */
  private async publish(subject: string, data: Uint8Array, what: 'task' | 'change' | 'opening' = 'task', msgID: string = randomUUID()): Promise<number> {
    const deadline = performance.now() + this.parts.publishDeadlineMs
    let last: Error | null = null
    for (;;) {
      const remaining = deadline - performance.now()
      if (remaining <= 0) break
      try {
        const ack = await this.parts.js.publish(subject, data, { msgID, timeout: Math.min(PUBLISH_TIMEOUT_MS, Math.max(remaining, 500)) })
        return ack.seq
      } catch (err) {
        last = err as Error
      }
      await new Promise((resolve) => setTimeout(resolve, PUBLISH_PAUSE_MS))
    }
    const stored = what === 'task' ? 'an entry stored without acknowledgement still shows on GET /tasks' : `${what === 'change' ? 'a change' : 'an opening'} stored without acknowledgement is still applied`
    throw unavailable(`the task log did not acknowledge it within ${this.parts.publishDeadlineMs / 1000} s (${last?.message}); ${stored}`, what)
  }

  async close(): Promise<void> {
    await this.parts.applier.stop()
    await this.parts.close()
  }
}

function unavailable(why: string, what: 'task' | 'change' | 'opening' = 'task'): TesseraError {
  return new TesseraError('task_log_unavailable', `The ${what} could not be registered: ${why}.`)
}

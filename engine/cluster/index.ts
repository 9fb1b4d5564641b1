/**
 * Cluster mode: the task log becomes a JetStream stream that every node applies to its own database (see
 * jetstream-log.ts for writes, applier.ts for applying). `openCluster` connects, creates the stream and the payloads
 * bucket when they do not exist, checks that this database and the stream belong together, and starts applying.
 */
import { randomUUID } from 'node:crypto'
import { connect } from '@nats-io/transport-node'
import { jetstream, jetstreamManager, RetentionPolicy, StorageType, type JetStreamManager } from '@nats-io/jetstream'
import { Objm } from '@nats-io/obj'
import { keys, type Store } from '../storage/index.js'
import type { TaskQueue } from '../tasks/queue.js'
import type { PayloadFiles } from '../payload/files.js'
import type { Scheduler } from '../scheduler/scheduler.js'
import type { StateChanges } from '../tasks/state-changes.js'
import { LogApplier } from './applier.js'
import type { Openings } from './openings.js'
import { JetStreamTaskLog } from './jetstream-log.js'
import { DEFAULT_PUBLISH_DEADLINE_MS, DEFAULT_REGISTER_WAIT_MS, bucketOf, replicasOf, subjectOf, type ClusterOptions } from './options.js'

export { type ClusterOptions } from './options.js'
export { JetStreamTaskLog } from './jetstream-log.js'

/** The stream this database applies (written when it joins a cluster with an empty task queue). */
const CLUSTER_STREAM = keys.utf8('clusterStream')

export interface ClusterParts {
  store: Store
  queue: TaskQueue
  payloads: PayloadFiles
  scheduler: Scheduler
  stateChanges: StateChanges
  /** The opened position (openings.ts), shared with the scheduler. */
  openings: Openings
  log: (msg: string, level?: 'INFO' | 'ERROR') => void
}

export async function openCluster(parts: ClusterParts, options: ClusterOptions): Promise<JetStreamTaskLog> {
  const nc = await connect({ servers: options.servers, name: 'tessera', maxReconnectAttempts: -1 })
  try {
    const jsm = await jetstreamManager(nc)
    const stream = await ensureStream(jsm, options)
    await checkMembership(parts, options.stream, stream)
    const bucket = await new Objm(nc).create(bucketOf(options.stream), { replicas: replicasOf(options), storage: StorageType.File })
    const js = jetstream(nc)
    const nodeId = randomUUID()
    const applier = new LogApplier({ ...parts, nodeId }, js, jsm, options.stream, bucket)
    applier.start()
    parts.log(`cluster: applying task log ${options.stream} from task ${parts.queue.nextTaskUid} (stream at ${stream.last}) through ${nc.getServer()}`)
    const log = new JetStreamTaskLog({
      js, bucket, subject: subjectOf(options.stream), maxPayload: nc.info?.max_payload ?? 1024 * 1024, payloads: parts.payloads,
      applier, registerWaitMs: options.registerWaitMs ?? DEFAULT_REGISTER_WAIT_MS, publishDeadlineMs: options.publishDeadlineMs ?? DEFAULT_PUBLISH_DEADLINE_MS, nodeId,
      close: async () => {
        parts.stateChanges.replicateThrough(null)
        parts.openings.publish = null
        await nc.drain()
      },
    })
    parts.openings.publish = (through) => log.publishOpening(through)
    // From now on the network, the features and the keys change through the log too.
    parts.stateChanges.replicateThrough(log)
    return log
  } catch (err) {
    await nc.close().catch(() => {})
    throw err
  }
}

/** Create the stream unless it exists; its last sequence. Entries are never removed: they are the task history. */
async function ensureStream(jsm: JetStreamManager, options: ClusterOptions): Promise<{ first: number; last: number }> {
  try {
    const { state } = await jsm.streams.info(options.stream)
    return { first: state.first_seq, last: state.last_seq }
  } catch (err) {
    if (!/stream not found/i.test((err as Error).message)) throw err
  }
  const info = await jsm.streams.add({
    name: options.stream, subjects: [subjectOf(options.stream)], retention: RetentionPolicy.Limits,
    storage: StorageType.File, num_replicas: replicasOf(options), duplicate_window: 120 * 1_000_000_000,
  })
  return { first: info.state.first_seq, last: info.state.last_seq }
}

/**
 * A database joins a cluster only empty (its task uids must be the stream's), and only the stream it joined: one
 * that already holds tasks of its own, or tasks the stream has not (a stream recreated after a loss), is refused.
 */
async function checkMembership({ store, queue }: ClusterParts, stream: string, { first, last }: { first: number; last: number }): Promise<void> {
  const joined = store.get('meta', CLUSTER_STREAM)
  if (joined === undefined || joined === null) {
    if (first > 1) throw new Error(`the task log ${stream} no longer starts at its first task: a new node cannot catch up from it`)
    if (queue.nextTaskUid > 0) throw new Error(`this database already holds ${queue.nextTaskUid} task(s) registered outside the cluster: cluster mode needs an empty database`)
    await store.commit([{ column: 'meta', key: CLUSTER_STREAM, value: Buffer.from(stream) }])
    return
  }
  if (last > 0 && first > queue.nextTaskUid + 1) throw new Error(`the task log ${stream} starts at task ${first - 1}, past this database's next task ${queue.nextTaskUid}`)
  const name = Buffer.from(joined).toString('utf8')
  if (name !== stream) throw new Error(`this database applies the task log ${name}, not ${stream}`)
  if (last < queue.nextTaskUid) {
    throw new Error(`the task log ${stream} ends at task ${last - 1} but this database registered up to task ${queue.nextTaskUid - 1}: the stream was recreated or lost entries`)
  }
}

/** What cluster mode is configured with (src/config.ts builds it from `--cluster` and its `--cluster-*` options). */
export interface ClusterOptions {
  /** NATS servers to connect to (`nats://host:port`); the client learns the rest of the NATS cluster from them. */
  servers: string[]
  /** The JetStream stream holding the task log; its payloads bucket is `<stream>-payloads`. */
  stream: string
  /** Replicas of the stream and the bucket when this node creates them: by default 3 with three or more servers, else 1. */
  replicas?: number
  /**
   * How long a write waits for this node to register its own task (answering with the task as registered); past
   * it, the write answers from the acknowledged log entry anyway. Default 10 s.
   */
  registerWaitMs?: number
  /**
   * How long a write keeps trying to publish to the log (one message id across attempts) before it is refused with
   * `task_log_unavailable`. Default 15 s: losing a server makes publishes fail until the stream has a new leader.
   */
  publishDeadlineMs?: number
}

export const DEFAULT_REGISTER_WAIT_MS = 10_000
export const DEFAULT_PUBLISH_DEADLINE_MS = 15_000

/** The subject the task log's stream takes entries on. */
export const subjectOf = (stream: string) => `tessera.${stream}.tasks`
export const bucketOf = (stream: string) => `${stream}-payloads`

/** Replicas of the stream and bucket (JetStream's limit is 5; three is the quorum the design asks for). */
export function replicasOf(options: ClusterOptions): number {
  return options.replicas ?? (options.servers.length >= 3 ? 3 : 1)
}

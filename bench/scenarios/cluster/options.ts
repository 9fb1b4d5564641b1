/** The cluster scenario's sizes (`npm run bench -- --only cluster`; `--quick` makes them small). */
export interface ClusterBenchOptions {
  /** Documents ingested per setup, in tasks of `batch` documents. */
  documents: number
  batch: number
  /** Concurrent writers and searchers. */
  clients: number
  /** One-document writes sent one after another to measure the acknowledgement latency. */
  ackWrites: number
  /** Seconds of searching for the QPS figure. */
  searchSeconds: number
  /** Tasks registered while a node is down, then caught up. */
  catchUpTasks: number
}

export const DEFAULT_CLUSTER_OPTIONS: ClusterBenchOptions = { documents: 50_000, batch: 500, clients: 4, ackWrites: 300, searchSeconds: 5, catchUpTasks: 2_000 }

export function quickClusterOptions(): ClusterBenchOptions {
  return { documents: 5_000, batch: 250, clients: 4, ackWrites: 60, searchSeconds: 2, catchUpTasks: 200 }
}

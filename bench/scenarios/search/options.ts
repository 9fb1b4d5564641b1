/** The search scenario's options (`--dataset`, `--corpus`, `--searchable`, `--search-docs`, `--queries`, …). */
import { PEERS, type PeerName } from '../../peers/peers.js'

export interface SearchOptions {
  /** A corpus file; null: the generated corpus. */
  dataset: string | null
  /** Documents of the generated corpus. */
  generatedDocuments: number
  /** Searchable attributes; null: chosen from the corpus (dataset.ts). */
  searchable: string[] | null
  /** Largest number of documents per NDJSON payload (payloads are sent concurrently). */
  payloadDocuments: number
  queries: number
  querySeed: number
  /** Measured rounds over the whole mix, after one warm-up round. */
  rounds: number
  /** Concurrent clients of the headline QPS window (issue 6's target is at 16). */
  connections: number
  /** Every client count measured (QPS and latency under load), the headline one included. */
  qpsClients: number[]
  qpsSeconds: number
  qpsWarmupSeconds: number
  /** Rounds over the whole mix for the in-process measurement (after one warm-up round). */
  inProcessRounds: number
  pollMs: number
  sampleMs: number
  taskTimeoutMs: number
  /** Directory for the server's CPU profile (`--cpu-prof`); null: no profile. */
  serverCpuProfDir: string | null
  /** Peers measured on the same documents and queries (peers/peers.ts); empty: none. */
  peers: PeerName[]
  /** An already running server to measure over HTTP (`--url`); null: a fresh server of this build. */
  url: string | null
  /** Its API key (`--api-key`), sent as `Authorization: Bearer …`. */
  apiKey: string | null
  quick: boolean
}

export const DEFAULT_SEARCH_OPTIONS: SearchOptions = {
  dataset: null,
  generatedDocuments: 100_000,
  searchable: null,
  payloadDocuments: 250_000,
  queries: 500,
  querySeed: 0x5ea4c4,
  rounds: 5,
  connections: 16,
  qpsClients: [1, 4, 16, 64],
  qpsSeconds: 15,
  qpsWarmupSeconds: 1,
  inProcessRounds: 5,
  pollMs: 20,
  sampleMs: 50,
  taskTimeoutMs: 600_000,
  serverCpuProfDir: null,
  peers: [...PEERS],
  url: null,
  apiKey: null,
  quick: false,
}

/**
 * `--quick`: a 10,000-document generated corpus (unless `--dataset`), 200 queries, 2 s QPS windows at 1 and 16
 * clients, fewer rounds.
 */
export function quickSearchOptions(options: SearchOptions): SearchOptions {
  return { ...options, generatedDocuments: 10_000, queries: 200, qpsClients: [1, 16], qpsSeconds: 2, qpsWarmupSeconds: 0.5, rounds: 2, inProcessRounds: 2, quick: true }
}

/** The client counts of the QPS windows: `qpsClients` and the headline `connections`, increasing. */
export function qpsClientCounts(options: SearchOptions): number[] {
  return [...new Set([...options.qpsClients, options.connections])].sort((a, b) => a - b)
}

/**
 * The network of this instance, persisted in the storage `meta` column family under one key (as the experimental
 * features are), so it survives restarts. Reads are in memory; a change is durable before `update` resolves and
 * takes effect at once, without a task: Meilisearch's `/network` route is synchronous in its Community Edition.
 * In cluster mode a change is applied by every node in log order (see `update`).
 */
import { decode, keys, type Store, type WriteOp } from '../storage/index.js'
import { StateChanges, type StatePlan } from '../tasks/state-changes.js'
import { uuidV7 } from './uuid.js'
import { checkCommunityEdition, mergeNetwork } from './merge.js'
import { topologyTask } from './topology-task.js'
import { emptyNetwork, type Network, type NetworkPatch, type Remote, type Shard } from './types.js'

const STORE_KEY = keys.utf8('network')

function str(v: unknown): string | null {
  return typeof v === 'string' ? v : null
}

/** A stored network read defensively: a field of the wrong type falls back to its default. */
function fromStored(raw: Record<string, unknown>): Network {
  const network = emptyNetwork()
  network.self = str(raw.self)
  network.leader = str(raw.leader)
  if (typeof raw.version === 'string') network.version = raw.version
  // `fromEntries`, so that any name (`__proto__` included) stays an own entry.
  const remotes = Object.entries((raw.remotes ?? {}) as Record<string, Record<string, unknown>>)
  network.remotes = Object.fromEntries(remotes.flatMap(([name, r]) => typeof r?.url === 'string'
    ? [[name, { url: r.url, searchApiKey: str(r.searchApiKey), writeApiKey: str(r.writeApiKey) } satisfies Remote]] : []))
  const shards = Object.entries((raw.shards ?? {}) as Record<string, Record<string, unknown>>)
  network.shards = Object.fromEntries(shards.flatMap(([name, s]) => Array.isArray(s?.remotes)
    ? [[name, { remotes: s.remotes.filter((x): x is string => typeof x === 'string') } satisfies Shard]] : []))
  return network
}

/**
 * The stored network: JSON text, so that remote and shard names, which users choose, round-trip whatever they are
 * (msgpack's decoder renames a `__proto__` key); msgpack as the first version of this file wrote it.
 */
function readStored(raw: Uint8Array): Record<string, unknown> {
  const text = Buffer.from(raw).toString('utf8')
  if (text.startsWith('{')) {
    try {
      return JSON.parse(text) as Record<string, unknown>
    } catch { /* not JSON: msgpack */ }
  }
  return decode<Record<string, unknown>>(raw)
}

/** The network stored in `store` (the empty network when none was ever set). */
export function readNetwork(store: Store): Network {
  const raw = store.get('meta', STORE_KEY)
  return raw ? fromStored(readStored(raw)) : emptyNetwork()
}

/**
 * A network change as it travels through the log: the checked patch, the version it gives the network, and the
 * `self` of the node that took it when it took it (`from`; absent in entries of older versions, which registered
 * their shard move as a task of its own), from which every node derives the same shard move.
 */
interface NetworkChange {
  patch: NetworkPatch
  version: string
  from?: string | null
}

export class NetworkConfig {
  /** Changes are applied one after another, so two concurrent PATCHes cannot lose each other's changes. */
  private chain: Promise<unknown> = Promise.resolve()

  private constructor(private readonly store: Store, private readonly changes: StateChanges, private network: Network) {
    changes.register('network', (body, here) => this.plan(body as NetworkChange, here))
  }

  /** `changes`: where changes go (the engine's; a fresh local one by default). */
  static async load(store: Store, changes = new StateChanges(store)): Promise<NetworkConfig> {
    return new NetworkConfig(store, changes, readNetwork(store))
  }

  /**
   * Replace the network with one read from a dump (`network.json`), as Meilisearch's import does: whole, read
   * defensively like a stored one (a field of the wrong type takes its default), without the checks of a PATCH.
   */
  restore(raw: Record<string, unknown>): Promise<Network> {
    return this.replace(() => fromStored(raw))
  }

  /** The network as `GET /network` shows it (a copy). */
  view(): Network {
    return structuredClone(this.network)
  }

  /**
   * Whether the shards split documents and `useNetwork` searches (cluster mode, set by the engine). A single node
   * keeps its shards as settings only, as Meilisearch's Community Edition does: `useNetwork` searches every remote.
   */
  sharding = false

  /** The network a search routes by: without `sharding`, without its shards. */
  routingView(): Network {
    const network = this.view()
    if (!this.sharding) network.shards = {}
    return network
  }

  /** The network as held (not a copy: callers must not change it). */
  get current(): Readonly<Network> {
    return this.network
  }

  /**
   * Apply a validated PATCH body: check it, merge it, persist the result (durable when this resolves), then switch.
   * A refused body or a failed write changes nothing. In cluster mode the change goes through the replicated log
   * (tasks/state-changes.ts): every node merges it in log order, and only the node that took it takes its `self`.
   */
  async update(patch: NetworkPatch): Promise<Network> {
    checkCommunityEdition(patch)
    return await this.changes.run('network', { patch, version: uuidV7(), from: this.network.self } satisfies NetworkChange) as Network
  }

  private plan({ patch, version, from }: NetworkChange, here: boolean): StatePlan {
    // Another node's `self` is its own name, not this node's.
    const network = mergeNetwork(this.network, here ? patch : { ...patch, self: undefined }, version)
    const plan: StatePlan = {
      ops: [this.writeOp(network)],
      apply: () => {
        this.network = network
        return this.view()
      },
    }
    if (this.sharding && from !== undefined) {
      // The move is read from the entry alone (`from`, the patch's `self`), never from this node's own name.
      const to = patch.self === undefined ? from : patch.self
      const task = topologyTask(this.network, network, from, to)
      if (task !== null) plan.task = task
    }
    return plan
  }

  private writeOp(network: Network): WriteOp {
    return { column: 'meta', key: STORE_KEY, value: Buffer.from(JSON.stringify(network)) }
  }

  /**
   * One change at a time, in call order: compute the next network from the current one, persist it (durable when
   * this resolves), then switch. A refusal or a failed write changes nothing, and the next change still runs.
   */
  private replace(next: () => Network): Promise<Network> {
    const run = async (): Promise<Network> => {
      const network = next()
      await this.store.commit([this.writeOp(network)])
      this.network = network
      return this.view()
    }
    const result = this.chain.then(run, run)
    this.chain = result.catch(() => undefined)
    return result
  }
}

/**
 * The network of this instance, persisted in the storage `meta` column family under one key (as the experimental
 * features are), so it survives restarts. Reads are in memory; a change is durable before `update` resolves and
 * takes effect at once, without a task: Meilisearch's `/network` route is synchronous in its Community Edition.
 */
import { encode, decode, keys, type Store } from '../storage/index.js'
import { checkCommunityEdition, mergeNetwork } from './merge.js'
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
  const remotes = (raw.remotes ?? {}) as Record<string, Record<string, unknown>>
  for (const [name, r] of Object.entries(remotes)) {
    if (typeof r?.url !== 'string') continue
    network.remotes[name] = { url: r.url, searchApiKey: str(r.searchApiKey), writeApiKey: str(r.writeApiKey) } satisfies Remote
  }
  const shards = (raw.shards ?? {}) as Record<string, Record<string, unknown>>
  for (const [name, s] of Object.entries(shards)) {
    if (Array.isArray(s?.remotes)) network.shards[name] = { remotes: s.remotes.filter((x): x is string => typeof x === 'string') } satisfies Shard
  }
  return network
}

export class NetworkConfig {
  /** Changes are applied one after another, so two concurrent PATCHes cannot lose each other's changes. */
  private chain: Promise<unknown> = Promise.resolve()

  private constructor(private readonly store: Store, private network: Network) {}

  static async load(store: Store): Promise<NetworkConfig> {
    const raw = store.get('meta', STORE_KEY)
    return new NetworkConfig(store, raw ? fromStored(decode<Record<string, unknown>>(raw)) : emptyNetwork())
  }

  /** The network as `GET /network` shows it (a copy). */
  view(): Network {
    return structuredClone(this.network)
  }

  /**
   * Apply a validated PATCH body: check it, merge it, persist the result (durable when this resolves), then switch.
   * A refused body or a failed write changes nothing.
   */
  update(patch: NetworkPatch): Promise<Network> {
    const run = async (): Promise<Network> => {
      checkCommunityEdition(patch)
      const next = mergeNetwork(this.network, patch)
      await this.store.commit([{ column: 'meta', key: STORE_KEY, value: encode(next) }])
      this.network = next
      return this.view()
    }
    const result = this.chain.then(run, run)
    this.chain = result.catch(() => undefined)
    return result
  }
}

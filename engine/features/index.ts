/**
 * Experimental feature switches (`GET/PATCH /experimental-features`), persisted in the storage `meta` column
 * family under one key, so a switch survives restarts. Reads are in memory; a change is durable before `patch`
 * resolves and takes effect at once (no task), as in Meilisearch.
 *
 * Which switches exist (a decision): current Meilisearch's object has ten or more toggles (metrics, logsRoute,
 * editDocumentsByFunction, containsFilter, network, getTaskDocumentsRoute, compositeEmbedders, chatCompletions,
 * multimodal, vectorStoreSetting, ...). Tessera follows its interface spec instead: the features object has the six
 * fields below, and `compositeEmbedders` is accepted on write (and gates composite embedders) but is not part of
 * the object. Switches Tessera does not implement (getTaskDocumentsRoute, multimodal, ...) are unknown fields.
 */
import { TesseraError } from '../errors/index.js'
import { encode, decode, keys, type Store } from '../storage/index.js'

export type FeatureName = 'metrics' | 'logsRoute' | 'containsFilter' | 'editDocumentsByFunction' | 'network' | 'chatCompletions' | 'compositeEmbedders'

/** The features object as GET and PATCH answer it, in Meilisearch's field order. */
export interface FeaturesObject {
  metrics: boolean
  logsRoute: boolean
  editDocumentsByFunction: boolean
  containsFilter: boolean
  network: boolean
  chatCompletions: boolean
}

/** The fields of the features object (what GET returns). */
export const VISIBLE_FEATURES = ['metrics', 'logsRoute', 'editDocumentsByFunction', 'containsFilter', 'network', 'chatCompletions'] as const satisfies readonly FeatureName[]

/** Every name PATCH accepts, in Meilisearch's declaration order (used by the "expected one of" message). */
export const FEATURE_NAMES: readonly FeatureName[] = ['metrics', 'logsRoute', 'editDocumentsByFunction', 'containsFilter', 'network', 'compositeEmbedders', 'chatCompletions']

/**
 * How Meilisearch names each feature in its "requires enabling" message, and the discussion it links to
 * (`crates/index-scheduler/src/features.rs`).
 */
export const FEATURE_INFO: Record<FeatureName, { label: string; link: string }> = {
  metrics: { label: 'metrics', link: 'https://github.com/meilisearch/product/discussions/625' },
  logsRoute: { label: 'logs route', link: 'https://github.com/orgs/meilisearch/discussions/721' },
  editDocumentsByFunction: { label: 'edit documents by function', link: 'https://github.com/orgs/meilisearch/discussions/762' },
  containsFilter: { label: 'contains filter', link: 'https://github.com/orgs/meilisearch/discussions/763' },
  network: { label: 'network', link: 'https://github.com/orgs/meilisearch/discussions/805' },
  compositeEmbedders: { label: 'composite embedders', link: 'https://github.com/orgs/meilisearch/discussions/816' },
  chatCompletions: { label: 'chat completions', link: 'https://github.com/orgs/meilisearch/discussions/835' },
}

/** The action phrases Meilisearch uses where the action is fixed (pass them to `require`). */
export const FEATURE_ACTIONS = {
  metrics: 'Getting metrics',
  logsRoute: 'Modifying logs through the `/logs/*` routes',
  editDocumentsByFunction: 'Using the documents edit route',
  containsFilter: 'Using `CONTAINS` in a filter',
} as const

/** The `feature_not_enabled` error: "{action} requires enabling the `{label}` experimental feature. See {link}". */
export function featureNotEnabled(name: FeatureName, action: string): TesseraError {
  const { label, link } = FEATURE_INFO[name]
  return new TesseraError('feature_not_enabled', `${action} requires enabling the \`${label}\` experimental feature. See ${link}`)
}

/** A PATCH body after validation: a value per feature to change (absent or null leaves it unchanged). */
export type FeaturesPatch = Partial<Record<FeatureName, boolean | null>>

const STORE_KEY = keys.utf8('experimental-features')

function defaults(): Record<FeatureName, boolean> {
  return Object.fromEntries(FEATURE_NAMES.map((n) => [n, false])) as Record<FeatureName, boolean>
}

export class Features {
  /** Changes are applied one after another, so two concurrent PATCHes cannot lose each other's switches. */
  private chain: Promise<unknown> = Promise.resolve()

  private constructor(private readonly store: Store, private state: Record<FeatureName, boolean>) {}

  static async load(store: Store): Promise<Features> {
    const state = defaults()
    const raw = store.get('meta', STORE_KEY)
    if (raw) {
      const saved = decode<Record<string, unknown>>(raw)
      for (const name of FEATURE_NAMES) if (typeof saved[name] === 'boolean') state[name] = saved[name] as boolean
    }
    return new Features(store, state)
  }

  isEnabled(name: FeatureName): boolean {
    return this.state[name]
  }

  /** The features object (the six visible fields). */
  view(): FeaturesObject {
    const s = this.state
    return { metrics: s.metrics, logsRoute: s.logsRoute, editDocumentsByFunction: s.editDocumentsByFunction, containsFilter: s.containsFilter, network: s.network, chatCompletions: s.chatCompletions }
  }

  /** Every switch, including the write-only ones. */
  all(): Record<FeatureName, boolean> {
    return { ...this.state }
  }

  /**
   * Apply a validated patch: persist it (durable when this resolves), then switch. Returns the features object.
   * The in-memory state changes only after the write succeeded, so a failed write changes nothing.
   */
  patch(changes: FeaturesPatch): Promise<FeaturesObject> {
    const run = async (): Promise<FeaturesObject> => {
      const next = { ...this.state }
      for (const name of FEATURE_NAMES) {
        const v = changes[name]
        if (typeof v === 'boolean') next[name] = v
      }
      await this.store.commit([{ column: 'meta', key: STORE_KEY, value: encode(next) }])
      this.state = next
      return this.view()
    }
    const result = this.chain.then(run, run)
    this.chain = result.catch(() => undefined)
    return result
  }

  /** Throws `feature_not_enabled` ("{action} requires enabling the `{feature}` experimental feature. See {link}"). */
  require(name: FeatureName, action: string): void {
    if (!this.state[name]) throw featureNotEnabled(name, action)
  }
}

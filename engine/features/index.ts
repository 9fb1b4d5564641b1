/**
 * Experimental feature switches (`GET/PATCH /experimental-features`), persisted in the storage `meta` column
 * family under one key, so a switch survives restarts. Reads are in memory; a change is durable before `patch`
 * resolves and takes effect at once (no task), as in Meilisearch.
 *
 * Which switches exist (a decision): the features object GET shows has the six fields of Tessera's interface spec.
 * PATCH accepts every switch Meilisearch 1.x knows (current ones and retired ones), because clients reset all the
 * switches they know in one call and a single unknown name would fail the whole call. Every switch is persisted;
 * the ones Tessera implements gate their feature (`require`), the others are remembered and change nothing.
 */
import { TesseraError } from '../errors/index.js'
import { encode, decode, keys, type Store } from '../storage/index.js'
import { StateChanges, type StatePlan } from '../tasks/state-changes.js'

/**
 * The switches current Meilisearch declares, in its declaration order (`routes/features.rs`; the order of the
 * "Unknown field ... expected one of" message).
 */
export const CURRENT_FEATURE_NAMES = [
  'metrics', 'logsRoute', 'tasksStreamingRoute', 'editDocumentsByFunction', 'containsFilter', 'dynamicSearchRules', 'network',
  'getTaskDocumentsRoute', 'taskQueueCompactionRoute', 'compositeEmbedders', 'chatCompletions', 'multimodal', 'foreignKeys',
  'disableDocumentsFetchQueue', 'legacySearch', 'renderRoute',
] as const

/**
 * Switches earlier 1.x releases accepted and later ones retired or stabilised (`vectorStore` 1.3–1.12, `scoreDetails`
 * 1.3, `exportPuffinReports` 1.4–1.6, `vectorStoreSetting` 1.2x, ...): still accepted so an older client's reset call
 * works, but not offered in the error message, which is the current release's.
 */
export const RETIRED_FEATURE_NAMES = ['scoreDetails', 'vectorSearch', 'vectorStore', 'exportPuffinReports', 'proximityPrecision', 'vectorStoreSetting'] as const

export type FeatureName = (typeof CURRENT_FEATURE_NAMES)[number] | (typeof RETIRED_FEATURE_NAMES)[number]

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

/** Every name PATCH accepts. */
export const FEATURE_NAMES: readonly FeatureName[] = [...CURRENT_FEATURE_NAMES, ...RETIRED_FEATURE_NAMES]

/**
 * How Meilisearch names each feature in its "requires enabling" message, and the discussion it links to
 * (`crates/index-scheduler/src/features.rs`).
 */
export const FEATURE_INFO = {
  metrics: { label: 'metrics', link: 'https://github.com/meilisearch/product/discussions/625' },
  logsRoute: { label: 'logs route', link: 'https://github.com/orgs/meilisearch/discussions/721' },
  editDocumentsByFunction: { label: 'edit documents by function', link: 'https://github.com/orgs/meilisearch/discussions/762' },
  containsFilter: { label: 'contains filter', link: 'https://github.com/orgs/meilisearch/discussions/763' },
  network: { label: 'network', link: 'https://github.com/orgs/meilisearch/discussions/805' },
  compositeEmbedders: { label: 'composite embedders', link: 'https://github.com/orgs/meilisearch/discussions/816' },
  chatCompletions: { label: 'chat completions', link: 'https://github.com/orgs/meilisearch/discussions/835' },
  dynamicSearchRules: { label: 'dynamic search rules', link: 'https://github.com/orgs/meilisearch/discussions/884' },
  getTaskDocumentsRoute: { label: 'get task documents route', link: 'https://github.com/orgs/meilisearch/discussions/808' },
  taskQueueCompactionRoute: { label: 'task queue compaction route', link: 'https://github.com/orgs/meilisearch/discussions/883' },
  multimodal: { label: 'multimodal', link: 'https://github.com/orgs/meilisearch/discussions/846' },
  foreignKeys: { label: 'foreign_keys', link: 'https://github.com/orgs/meilisearch/discussions/873' },
  renderRoute: { label: 'render_route', link: 'https://github.com/orgs/meilisearch/discussions/888' },
  tasksStreamingRoute: { label: 'tasks_streaming_route', link: 'https://github.com/orgs/meilisearch/discussions/889' },
} as const satisfies Partial<Record<FeatureName, { label: string; link: string }>>

/** A switch that can refuse an action (Meilisearch has a "requires enabling" message for it). */
export type GatedFeature = keyof typeof FEATURE_INFO

/** The action phrases Meilisearch uses where the action is fixed (pass them to `require`). */
export const FEATURE_ACTIONS = {
  metrics: 'Getting metrics',
  logsRoute: 'Modifying logs through the `/logs/*` routes',
  editDocumentsByFunction: 'Using the documents edit route',
  containsFilter: 'Using `CONTAINS` in a filter',
} as const

/** The `feature_not_enabled` error: "{action} requires enabling the `{label}` experimental feature. See {link}". */
export function featureNotEnabled(name: GatedFeature, action: string): TesseraError {
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
  private constructor(private readonly changes: StateChanges, private state: Record<FeatureName, boolean>) {
    changes.register('features', (body) => this.plan(body as FeaturesPatch))
  }

  /** `changes`: where changes go (the engine's; a fresh local one by default). */
  static async load(store: Store, changes = new StateChanges(store)): Promise<Features> {
    const state = defaults()
    const raw = store.get('meta', STORE_KEY)
    if (raw) {
      const saved = decode<Record<string, unknown>>(raw)
      for (const name of FEATURE_NAMES) if (typeof saved[name] === 'boolean') state[name] = saved[name] as boolean
    }
    return new Features(changes, state)
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
   * Apply a validated patch (through the replicated log in cluster mode, see tasks/state-changes.ts): durable when
   * this resolves. Returns the features object. A failed write changes nothing.
   */
  async patch(changes: FeaturesPatch): Promise<FeaturesObject> {
    return await this.changes.run('features', changes) as FeaturesObject
  }

  private plan(changes: FeaturesPatch): StatePlan {
    const next = { ...this.state }
    for (const name of FEATURE_NAMES) {
      const v = changes[name]
      if (typeof v === 'boolean') next[name] = v
    }
    return {
      ops: [{ column: 'meta', key: STORE_KEY, value: encode(next) }],
      apply: () => {
        this.state = next
        return this.view()
      },
    }
  }

  /** Throws `feature_not_enabled` ("{action} requires enabling the `{feature}` experimental feature. See {link}"). */
  require(name: GatedFeature, action: string): void {
    if (!this.state[name]) throw featureNotEnabled(name, action)
  }
}

/** STUB — to be replaced by the features helper. Experimental feature switches, persisted in storage. */
import type { Store } from '../storage/index.js'

export type FeatureName = 'metrics' | 'logsRoute' | 'containsFilter' | 'editDocumentsByFunction' | 'network' | 'chatCompletions' | 'compositeEmbedders'

export class Features {
  private constructor(private readonly store: Store, private readonly state: Record<FeatureName, boolean>) {}

  static async load(store: Store): Promise<Features> {
    return new Features(store, { metrics: false, logsRoute: false, containsFilter: false, editDocumentsByFunction: false, network: false, chatCompletions: false, compositeEmbedders: false })
  }

  isEnabled(name: FeatureName): boolean {
    return this.state[name]
  }

  /** Throws `feature_not_enabled` ("{action} requires enabling the `{feature}` experimental feature. See {link}"). */
  require(name: FeatureName, action: string): void {
    void name; void action
  }
}

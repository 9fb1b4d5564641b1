/**
 * Each index's settings as last published, for readers: read from storage once per published batch and shared
 * by every search until the next batch is published (a search reads them on every request). While an index's
 * stored record is unchanged, the same object is answered across batches of any index, so what is kept per settings
 * object (facet configs, tokenizers, the view a search thread holds) outlives batches that did not change them.
 */
import type { Store } from '../storage/index.js'
import { settingsFromText, storedSettingsText } from './index.js'
import type { Settings } from './types.js'

/** Past this many indexes the cache starts over rather than grow. */
const MAX_CACHED = 1000

export class PublishedSettings {
  private readonly cache = new Map<number, { published: number; text: string | null; settings: Settings }>()

  /** `published()`: the count of batches published so far (a new one invalidates the cache). */
  constructor(private readonly store: Store, private readonly published: () => number) {}

  of(indexId: number): Settings {
    const published = this.published()
    const hit = this.cache.get(indexId)
    if (hit && hit.published === published) return hit.settings
    const text = storedSettingsText(this.store, indexId)
    const settings = hit && hit.text === text ? hit.settings : settingsFromText(text)
    if (this.cache.size >= MAX_CACHED) this.cache.clear()
    this.cache.set(indexId, { published, text, settings })
    return settings
  }
}

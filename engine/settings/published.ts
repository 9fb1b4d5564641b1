/**
 * Each index's settings as last published, for readers: read from storage once per published batch and shared
 * by every search until the next batch is published (a search reads them on every request).
 */
import type { Store } from '../storage/index.js'
import { readSettings } from './index.js'
import type { Settings } from './types.js'

/** Past this many indexes the cache starts over rather than grow. */
const MAX_CACHED = 1000

export class PublishedSettings {
  private readonly cache = new Map<number, { published: number; settings: Settings }>()

  /** `published()`: the count of batches published so far (a new one invalidates the cache). */
  constructor(private readonly store: Store, private readonly published: () => number) {}

  of(indexId: number): Settings {
    const published = this.published()
    const hit = this.cache.get(indexId)
    if (hit && hit.published === published) return hit.settings
    const settings = readSettings(this.store, indexId)
    if (this.cache.size >= MAX_CACHED) this.cache.clear()
    this.cache.set(indexId, { published, settings })
    return settings
  }
}

/**
 * After a batch is committed, the query embedders this thread holds follow the indexes: those of a deleted index
 * are closed (sockets, retry timers, model sessions), and so are those removed from an index's settings or whose
 * settings changed. Cheap enough for every batch: it reads the settings of the few indexes that have one built.
 *
 * Worker threads keep the embedders they generate documents with until the pool ends (see README, embedders).
 */
import type { IndexCatalog } from '../indexes/catalog.js'
import { readSettings } from '../settings/index.js'
import type { Store } from '../storage/index.js'
import { heldEmbedders, releaseEmbedders } from '../embedders/index.js'

export async function releaseQueryEmbedders(store: Store, catalog: Pick<IndexCatalog, 'get'>): Promise<void> {
  for (const uid of new Set(heldEmbedders().map((h) => h.indexUid))) {
    const meta = catalog.get(uid)
    await releaseEmbedders(uid, meta === undefined ? null : readSettings(store, meta.id).embedders)
  }
}

/**
 * Settings updates in an index batch: merged into the batch's view of the index's settings (an update creates a
 * missing index; a reset, from a DELETE route, fails on one, as Meilisearch's do), with the reindexing they require
 * recorded for `reindex.ts` to do before the commit.
 */
import { applySettingsUpdate, settingsUpdateCreatesIndex, type ReindexKind, type SettingsUpdate } from '../settings/index.js'
import type { Details } from '../tasks/types.js'
import type { IndexBatch } from './index-batch.js'

export function applySettings(batch: IndexBatch, uid: string, update: SettingsUpdate, details: Details | null): Details | null {
  const meta = settingsUpdateCreatesIndex(update) ? batch.deps.draft.ensure(uid, null, batch.deps.now).meta : batch.existing(uid)
  const { settings, reindex } = applySettingsUpdate(batch.settingsOf(meta), update)
  batch.settings.set(meta.id, settings)
  const plan = batch.reindex.get(meta.id) ?? new Set<ReindexKind>()
  for (const kind of reindex) plan.add(kind)
  batch.reindex.set(meta.id, plan)
  batch.settingUids.set(meta.id, [meta.uid])
  return details
}

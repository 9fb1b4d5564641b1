/**
 * STUB — to be replaced by the settings helper. Contract: index settings, their defaults, validation, application
 * and storage. Routes validate synchronously (`validateSettings`), the scheduler applies (`applySettingsUpdate`)
 * inside a batch and writes (`settingsWriteOps`); GET shows `settingsView`; task details show `settingsDetails`.
 */
import type { Store, WriteOp } from '../storage/index.js'
import type { Details } from '../tasks/types.js'
import type { Features } from '../features/index.js'

/** The full settings of an index (every field present). */
export type Settings = Record<string, unknown> & { filterableAttributes: unknown[]; displayedAttributes: string[]; distinctAttribute: string | null }

/** A validated update: fields absent stay, `null` resets to the default. */
export type SettingsUpdate = Record<string, unknown>

/** Which reindexing work a change requires (the search issues apply exactly that). */
export type ReindexKind = 'searchable' | 'filterable' | 'sortable' | 'distinct' | 'stopWords' | 'separators' | 'dictionary' | 'synonyms' | 'typo' | 'proximity' | 'prefix' | 'embedders' | 'localizedAttributes'

export const DEFAULT_SETTINGS: Settings = { filterableAttributes: [], displayedAttributes: ['*'], distinctAttribute: null }

/**
 * Validate a settings body. `route` is the sub-route name (e.g. `filterable-attributes`) when the body is one
 * field's value, or null for the whole-settings object. Throws TesseraError (400) on the first failing field.
 */
export function validateSettings(body: unknown, route: string | null, features: Features): SettingsUpdate {
  void body; void route; void features
  throw new Error('not implemented')
}

export function applySettingsUpdate(current: Settings, update: SettingsUpdate): { settings: Settings; reindex: ReindexKind[] } {
  void current; void update
  throw new Error('not implemented')
}

/** The GET body (whole settings), secrets masked. */
export function settingsView(settings: Settings): Record<string, unknown> {
  return settings
}

/** A settingsUpdate task's details: the submitted settings, secrets masked. */
export function settingsDetails(update: SettingsUpdate): Details {
  return update
}

export function readSettings(store: Store, indexId: number): Settings {
  void store; void indexId
  return DEFAULT_SETTINGS
}

export function settingsWriteOps(indexId: number, settings: Settings): WriteOp[] {
  void indexId; void settings
  return []
}

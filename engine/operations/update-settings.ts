import type { Engine } from '../engine.js'
import { settingsDetails, type SettingsUpdate } from '../settings/index.js'
import type { EnqueuedTask } from '../tasks/types.js'
import { enqueue } from './enqueue.js'

/** A validated settings update (or reset): a task; an update creates a missing index, a reset does not. */
export function updateSettings(engine: Engine, uid: string, update: SettingsUpdate): Promise<EnqueuedTask> {
  return enqueue(engine, { type: 'settingsUpdate', indexUid: uid, details: settingsDetails(update), operation: { type: 'settingsUpdate', update } })
}

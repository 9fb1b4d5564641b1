import type { Engine } from '../engine.js'
import { readSettings, type Settings } from '../settings/index.js'

/** `GET /indexes/{uid}/settings` (and its sub-routes): defaults for fields never set. */
export function getSettings(engine: Engine, uid: string): Settings {
  return readSettings(engine.store, engine.index(uid).id)
}

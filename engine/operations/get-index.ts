import type { Engine } from '../engine.js'
import { indexView, type IndexView } from '../indexes/catalog.js'

/** `GET /indexes/{uid}`. */
export function getIndex(engine: Engine, uid: string): IndexView {
  return indexView(engine.index(uid))
}

/**
 * The jobs a worker can run. Plain functions of plain data: the pool runs them in worker threads, and the engine
 * runs them inline when it has no pool.
 */
import { parseJsonBytes, type JsonParse } from '../payload/json.js'

export const jobs = {
  /** Parse (and so validate) a JSON body. */
  parseJson(input: { bytes: Uint8Array }): JsonParse {
    return parseJsonBytes(input.bytes)
  },
}

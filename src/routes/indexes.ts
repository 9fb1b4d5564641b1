/** `/indexes`, `/indexes/{uid}`, `/indexes/{uid}/stats` and `/swap-indexes`. */
import { TesseraError } from '../../engine/errors/index.js'
import type { IndexSwap } from '../../engine/tasks/types.js'
import { json } from '../http/json.js'
import { at, expectObject, invalidType, invalidValue, missingField, parseQuery, positiveIntegerParam, type JsonObject } from '../../engine/errors/deserr.js'
import { indexUidFromPath, indexUidMessage, isValidIndexUid } from '../validation/index-uid.js'
import type { AppRouter } from './context.js'

function uidField(value: unknown, path: string, code = 'invalid_index_uid'): string {
  if (typeof value !== 'string') throw invalidType(code, path, 'a string', value)
  if (!isValidIndexUid(value)) throw invalidValue(code, path, indexUidMessage(value))
  return value
}

function primaryKeyField(body: JsonObject): string | null {
  const pk = body.primaryKey
  if (pk === undefined || pk === null) return null
  if (typeof pk !== 'string') throw invalidType('invalid_index_primary_key', '.primaryKey', 'a string', pk)
  return pk
}

function parseSwaps(body: unknown): IndexSwap[] {
  if (!Array.isArray(body)) throw invalidType('bad_request', '', 'an array', body)
  const swaps = body.map((entry, i): IndexSwap => {
    const path = at('', i)
    const obj = expectObject(entry, path, ['indexes', 'rename'])
    if (obj.indexes === undefined) throw missingField('missing_swap_indexes', path, 'indexes')
    if (!Array.isArray(obj.indexes)) throw invalidType('invalid_swap_indexes', at(path, 'indexes'), 'an array', obj.indexes)
    const indexes = obj.indexes.map((u, j) => uidField(u, at(at(path, 'indexes'), j), 'invalid_swap_indexes'))
    if (obj.rename !== undefined && typeof obj.rename !== 'boolean') throw invalidType('invalid_swap_rename', at(path, 'rename'), 'a boolean', obj.rename)
    return { indexes: indexes as [string, string], rename: obj.rename === true }
  })
  // The whole payload is deserialized first; the handler then checks the pair sizes.
  for (const { indexes } of swaps) {
    if (indexes.length !== 2) {
      throw new TesseraError('invalid_swap_indexes', `Two indexes must be given for each swap. The list \`[${indexes.map((u) => JSON.stringify(u)).join(', ')}]\` contains ${indexes.length} indexes.`)
    }
  }
  const seen = new Set<string>()
  const duplicates: string[] = []
  for (const uid of swaps.flatMap((s) => s.indexes)) {
    if (seen.has(uid) && !duplicates.includes(uid)) duplicates.push(uid)
    seen.add(uid)
  }
  if (duplicates.length > 0) {
    // Meilisearch collects them in a BTreeSet: sorted.
    duplicates.sort()
    const names = duplicates.map((u) => `\`${u}\``).join(', ')
    throw new TesseraError('invalid_swap_duplicate_index_found', `Indexes must be declared only once during a swap. ${names} ${duplicates.length === 1 ? 'was' : 'were'} specified several times.`)
  }
  return swaps
}

export function indexRoutes(router: AppRouter): void {
  router
    .on('GET', '/indexes', ({ engine, req }) => {
      const params = parseQuery(req.rawQuery, ['offset', 'limit'])
      const offset = params.has('offset') ? positiveIntegerParam('invalid_index_offset', 'offset', params.get('offset')!) : 0
      const limit = params.has('limit') ? positiveIntegerParam('invalid_index_limit', 'limit', params.get('limit')!) : 20
      return json(200, engine.listIndexes(offset, limit))
    })
    .on('POST', '/indexes', async ({ engine, body }) => {
      const obj = expectObject(await body(), '', ['uid', 'primaryKey'])
      if (obj.uid === undefined) throw missingField('missing_index_uid', '', 'uid')
      const uid = uidField(obj.uid, '.uid')
      return json(202, await engine.createIndex(uid, primaryKeyField(obj)))
    })
    .on('GET', '/indexes/:uid', ({ engine, params }) => json(200, engine.getIndex(indexUidFromPath(params.uid!))))
    .on('PATCH', '/indexes/:uid', async ({ engine, params, body }) => {
      const uid = indexUidFromPath(params.uid!)
      const raw = await body()
      if (raw !== null && typeof raw === 'object' && !Array.isArray(raw)) {
        for (const immutable of ['createdAt', 'updatedAt'] as const) {
          if (immutable in raw) {
            throw new TesseraError(`immutable_index_${immutable === 'createdAt' ? 'created_at' : 'updated_at'}`, `Immutable field \`${immutable}\`: expected one of \`primaryKey\`, \`uid\``)
          }
        }
      }
      const obj = expectObject(raw, '', ['primaryKey', 'uid'])
      const newUid = obj.uid === undefined || obj.uid === null ? null : uidField(obj.uid, '.uid')
      return json(202, await engine.updateIndex(uid, primaryKeyField(obj), newUid))
    })
    .on('DELETE', '/indexes/:uid', async ({ engine, params }) => json(202, await engine.deleteIndex(indexUidFromPath(params.uid!))))
    .on('GET', '/indexes/:uid/stats', ({ engine, params }) => json(200, engine.indexStats(indexUidFromPath(params.uid!))))
    .on('POST', '/swap-indexes', async ({ engine, body }) => json(202, await engine.swapIndexes(parseSwaps(await body()))))
}

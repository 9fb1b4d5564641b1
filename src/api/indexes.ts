/** Requests of the index routes: list paging, creation and update bodies, and the swap list. */
import { TesseraError } from '../../engine/errors/index.js'
import type { IndexSwap } from '../../engine/tasks/types.js'
import type { JsonObject } from '../../engine/json/value.js'
import { at, expectObject, invalidType, invalidValue, missingField, parseQuery, positiveIntegerParam } from './deserr.js'
import { indexUidMessage, isValidIndexUid } from './index-uid.js'

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

/** `GET /indexes?offset&limit`. */
export function parseIndexPage(rawQuery: string): { offset: number; limit: number } {
  const params = parseQuery(rawQuery, ['offset', 'limit'])
  return {
    offset: params.has('offset') ? positiveIntegerParam('invalid_index_offset', 'offset', params.get('offset')!) : 0,
    limit: params.has('limit') ? positiveIntegerParam('invalid_index_limit', 'limit', params.get('limit')!) : 20,
  }
}

/** `POST /indexes {uid, primaryKey}`. */
export function parseCreateIndex(body: unknown): { uid: string; primaryKey: string | null } {
  const obj = expectObject(body, '', ['uid', 'primaryKey'])
  if (obj.uid === undefined) throw missingField('missing_index_uid', '', 'uid')
  return { uid: uidField(obj.uid, '.uid'), primaryKey: primaryKeyField(obj) }
}

/** `PATCH /indexes/{uid} {primaryKey, uid}` (a new uid renames). */
export function parseUpdateIndex(body: unknown): { primaryKey: string | null; newUid: string | null } {
  if (body !== null && typeof body === 'object' && !Array.isArray(body)) {
    for (const immutable of ['createdAt', 'updatedAt'] as const) {
      if (immutable in body) {
        throw new TesseraError(`immutable_index_${immutable === 'createdAt' ? 'created_at' : 'updated_at'}`, `Immutable field \`${immutable}\`: expected one of \`primaryKey\`, \`uid\``)
      }
    }
  }
  const obj = expectObject(body, '', ['primaryKey', 'uid'])
  const newUid = obj.uid === undefined || obj.uid === null ? null : uidField(obj.uid, '.uid')
  return { primaryKey: primaryKeyField(obj), newUid }
}

/** `POST /swap-indexes [{indexes: [a, b], rename}]`. */
export function parseSwaps(body: unknown): IndexSwap[] {
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
  // The whole payload is deserialized first; the pair sizes are checked after.
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

/**
 * Requests of `/keys` with Meilisearch's deserr messages (`CreateApiKey`, `PatchApiKey`, `ListApiKeys` in
 * `meilisearch-types/src/keys.rs` and `routes/api_key.rs`): fields are checked in the order they were sent and the
 * first fault is reported; then missing fields, in the order `actions`, `indexes`, `expiresAt`. A PATCH takes only
 * `name` and `description`; the other fields of a key are refused with their `immutable_api_key_*` code.
 */
import { TesseraError } from '../../engine/errors/index.js'
import { nowMicros } from '../../engine/tasks/time.js'
import { MEILISEARCH_ACTIONS, GLOBAL_ACTIONS, isAction, type Action } from '../keys/actions.js'
import { expiresAtMessage, parseExpiresAt, type Expiry } from '../keys/expiry.js'
import { indexPatternMessage } from '../keys/index-pattern.js'
import type { NewKey } from '../keys/key-store.js'
import { newUuid, parseUuid } from '../keys/uuid.js'
import {
  U64_MAX, at, invalidType, invalidValue, missingField, parseQuery, positiveIntegerParam, unknownField, unknownValue,
} from './deserr.js'

const CREATE_FIELDS = ['description', 'name', 'uid', 'actions', 'indexes', 'expiresAt'] as const
const PATCH_FIELDS = ['description', 'name'] as const
const IMMUTABLE: Record<string, string> = {
  uid: 'immutable_api_key_uid', actions: 'immutable_api_key_actions', indexes: 'immutable_api_key_indexes',
  expiresAt: 'immutable_api_key_expires_at', createdAt: 'immutable_api_key_created_at', updatedAt: 'immutable_api_key_updated_at',
}

function optionalString(value: unknown, field: 'name' | 'description'): string | null {
  if (value === null) return null
  if (typeof value !== 'string') throw invalidType(`invalid_api_key_${field}`, `.${field}`, 'a string', value)
  return value
}

function actionsOf(value: unknown): Action[] {
  const code = 'invalid_api_key_actions'
  if (!Array.isArray(value)) throw invalidType(code, '.actions', 'an array', value)
  return value.map((item, i) => {
    if (typeof item !== 'string') throw invalidType(code, at('.actions', i), 'a string', item)
    if (!isAction(item)) throw unknownValue(code, at('.actions', i), item, MEILISEARCH_ACTIONS)
    return item
  })
}

function indexesOf(value: unknown): string[] {
  const code = 'invalid_api_key_indexes'
  if (!Array.isArray(value)) throw invalidType(code, '.indexes', 'an array', value)
  return value.map((item, i) => {
    if (typeof item !== 'string') throw invalidType(code, at('.indexes', i), 'a string', item)
    const message = indexPatternMessage(item)
    if (message !== null) throw invalidValue(code, at('.indexes', i), message)
    return item
  })
}

function expiresAtOf(value: unknown): Expiry | null {
  if (value === null) return null
  if (typeof value !== 'string') throw invalidType('invalid_api_key_expires_at', '.expiresAt', 'a string', value)
  const expiry = parseExpiresAt(value, nowMicros())
  if (expiry === null) throw invalidValue('invalid_api_key_expires_at', '.expiresAt', expiresAtMessage(value))
  return expiry
}

/** `POST /keys`. */
export function parseCreateKey(body: unknown): NewKey {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw invalidType('bad_request', '', 'an object', body)
  let name: string | null = null
  let description: string | null = null
  let uid: string | undefined
  let actions: Action[] | undefined
  let indexes: string[] | undefined
  let expiresAt: Expiry | null | undefined
  for (const [field, value] of Object.entries(body)) {
    switch (field) {
      case 'description': description = optionalString(value, 'description'); break
      case 'name': name = optionalString(value, 'name'); break
      case 'uid': {
        if (typeof value !== 'string') throw invalidType('invalid_api_key_uid', '.uid', 'a string', value)
        const parsed = parseUuid(value)
        if (!parsed.ok) throw invalidValue('invalid_api_key_uid', '.uid', parsed.message)
        uid = parsed.uid
        break
      }
      case 'actions': actions = actionsOf(value); break
      case 'indexes': indexes = indexesOf(value); break
      case 'expiresAt': expiresAt = expiresAtOf(value); break
      default: throw unknownField('', field, CREATE_FIELDS)
    }
  }
  if (actions === undefined) throw missingField('missing_api_key_actions', '', 'actions')
  if (indexes === undefined) throw missingField('missing_api_key_indexes', '', 'indexes')
  if (expiresAt === undefined) throw missingField('missing_api_key_expires_at', '', 'expiresAt')
  if (!indexes.includes('*')) {
    const global = actions.filter((a) => GLOBAL_ACTIONS.has(a))
    if (global.length > 0) {
      throw new TesseraError('index_scoped_api_key_with_global_action', `An API key restricted to some indexes cannot hold the global actions ${global.map((a) => `\`${a}\``).join(', ')}: they concern the whole instance. Use \`"indexes": ["*"]\` for such a key.`)
    }
  }
  return { uid: uid ?? newUuid(), name, description, actions, indexes, expiresAt }
}

/** `PATCH /keys/{key}`: `undefined` leaves a field unchanged, `null` clears it. */
export function parsePatchKey(body: unknown): { name?: string | null; description?: string | null } {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw invalidType('bad_request', '', 'an object', body)
  const patch: { name?: string | null; description?: string | null } = {}
  for (const [field, value] of Object.entries(body)) {
    if (field === 'name' || field === 'description') patch[field] = optionalString(value, field)
    else if (IMMUTABLE[field] !== undefined) throw new TesseraError(IMMUTABLE[field]!, `Immutable field \`${field}\`: expected one of ${PATCH_FIELDS.map((f) => `\`${f}\``).join(', ')}`)
    else throw unknownField('', field, PATCH_FIELDS)
  }
  return patch
}

/** `GET /keys?offset&limit` (limit 20 by default). */
export function parseKeyPage(rawQuery: string): { offset: number; limit: number } {
  const params = parseQuery(rawQuery, ['offset', 'limit'])
  const offset = params.has('offset') ? positiveIntegerParam('invalid_api_key_offset', 'offset', params.get('offset')!, U64_MAX) : 0
  const limit = params.has('limit') ? positiveIntegerParam('invalid_api_key_limit', 'limit', params.get('limit')!, U64_MAX) : 20
  return { offset, limit }
}

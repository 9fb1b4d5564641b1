/**
 * The `foreignKeys` index setting (Meilisearch's `ForeignKey`, behind the `foreignKeys` experimental feature): a list
 * of `{ foreignIndexUid, fieldName }`, both strings, both required, no other field. Tessera stores and shows the list;
 * it does not use it in filters (Meilisearch's cross-index filtering is not implemented).
 */
import type { ErrorCode } from '../../engine/errors/index.js'
import type { ForeignKey } from '../../engine/settings/types.js'
import { at, expectObject, expectString, invalidType, missingField, type Path } from './deserr.js'

const FOREIGN_KEY_FIELDS = ['foreignIndexUid', 'fieldName'] as const

export function foreignKeys(value: unknown, path: Path, code: ErrorCode): ForeignKey[] {
  if (!Array.isArray(value)) throw invalidType(code, path, 'an array', value)
  return value.map((item, i) => {
    const p = at(path, i)
    const obj = expectObject(item, p, FOREIGN_KEY_FIELDS, code, code)
    for (const field of FOREIGN_KEY_FIELDS) if (!(field in obj)) throw missingField(code, p, field)
    return { foreignIndexUid: expectString(obj.foreignIndexUid, at(p, 'foreignIndexUid'), code), fieldName: expectString(obj.fieldName, at(p, 'fieldName'), code) }
  })
}

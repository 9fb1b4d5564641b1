/**
 * serde_json's words for a JSON value of the wrong type, as Meilisearch passes them on where it parses with serde
 * rather than deserr (a document's `_vectors.<name>.regenerate`, the body of `/documents/delete-batch`):
 * `invalid type: string "yes please", expected a boolean at line 1 column 26`. The column is where serde's parse
 * stopped in the text the client sent; the body is only known parsed here, so it is counted in its compact
 * serialization, which is what clients send.
 */

/** How serde names the kind of `value` in an `invalid type` error. */
export function serdeUnexpected(value: unknown): string {
  if (value === null) return 'null'
  if (typeof value === 'string') return `string ${JSON.stringify(value)}`
  if (typeof value === 'boolean') return `boolean \`${value}\``
  if (typeof value === 'number') return Number.isInteger(value) ? `integer \`${value}\`` : `floating point \`${value}\``
  return Array.isArray(value) ? 'sequence' : 'map'
}

/**
 * The column serde reports for `value` starting after `before` characters: past the end of a scalar it rejects,
 * but at the opening bracket of an array or an object.
 */
export function serdeColumn(before: number, value: unknown): number {
  return before + (typeof value === 'object' && value !== null ? 1 : JSON.stringify(value).length)
}

export function serdeInvalidType(value: unknown, expected: string, before = 0): string {
  return `invalid type: ${serdeUnexpected(value)}, expected ${expected} at line 1 column ${serdeColumn(before, value)}`
}

/**
 * A size in bytes as Meilisearch's task details print one (byte_unit's `get_appropriate_unit(UnitType::Both)`): the
 * largest unit it reaches, decimal when that is exact, else binary, with the value's fraction kept (`1.5 KiB`).
 */
const DECIMAL: [number, string][] = [[1e12, 'TB'], [1e9, 'GB'], [1e6, 'MB'], [1e3, 'KB']]
const BINARY: [number, string][] = [[2 ** 40, 'TiB'], [2 ** 30, 'GiB'], [2 ** 20, 'MiB'], [2 ** 10, 'KiB']]

export function formatByteSize(bytes: number): string {
  for (const [size, unit] of DECIMAL) if (bytes >= size && bytes % size === 0) return `${bytes / size} ${unit}`
  for (const [size, unit] of BINARY) if (bytes >= size) return `${Number((bytes / size).toFixed(2))} ${unit}`
  return `${bytes} B`
}

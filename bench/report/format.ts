/** Number formats shared by the foundation, documents, search and facets reports (`n/a` for what was not measured). */

export const int = (n: number): string => Math.round(n).toLocaleString('en-US')
export const ms = (n: number): string => (n < 10 ? n.toFixed(2) : n.toFixed(1))
export const pct = (n: number | null): string => (n === null ? 'n/a' : `${Math.round(n)} %`)
export const num = (n: number | null, digits = 1): string => (n === null ? 'n/a' : n.toFixed(digits))
export const intOrNa = (n: number | null): string => (n === null ? 'n/a' : int(n))
/** MiB as MB (10^6 bytes), the unit the targets are stated in. */
export const MB = (mib: number | null): number | null => (mib === null ? null : (mib * 2 ** 20) / 1e6)
/** `p50 / p95 / p99` with `digits` decimals. */
export const trio = (l: { p50: number; p95: number; p99: number } | null | undefined, digits: number): string =>
  l ? `${l.p50.toFixed(digits)} / ${l.p95.toFixed(digits)} / ${l.p99.toFixed(digits)}` : 'n/a'
/** A share (0–1) as a percentage: whole at 0 and 100 %, one decimal otherwise. */
export const share = (x: number | null): string => (x === null ? 'n/a' : `${(100 * x).toFixed(x === 1 || x === 0 ? 0 : 1)} %`)

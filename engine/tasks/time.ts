import type { Micros } from './types.js'

let last = 0

/** Now, in microseconds; strictly increasing within the process so timestamps never tie or go back. */
export function nowMicros(): Micros {
  const t = Math.floor((performance.timeOrigin + performance.now()) * 1000)
  last = t > last ? t : last + 1
  return last
}

/** RFC 3339 in UTC, fraction trimmed of trailing zeros as Meilisearch prints it: `2026-11-22T04:34:16.12345Z`. */
export function formatMicros(us: Micros): string {
  const seconds = Math.floor(us / 1_000_000)
  const fraction = us - seconds * 1_000_000
  const base = new Date(seconds * 1000).toISOString().slice(0, 19)
  if (fraction === 0) return base + 'Z'
  return base + '.' + String(fraction).padStart(6, '0').replace(/0+$/, '') + 'Z'
}

/**
 * ISO-8601 duration as Meilisearch prints it: `PT{s}S`, with 3 fractional digits when the duration is a whole
 * number of milliseconds, 6 otherwise (our clock counts microseconds), a `{d}D` part from one day up, and
 * `P{d}D` alone for whole days.
 */
export function formatDuration(us: Micros): string {
  const totalSeconds = Math.floor(us / 1_000_000)
  const fraction = us - totalSeconds * 1_000_000
  const days = Math.floor(totalSeconds / 86_400)
  const seconds = totalSeconds % 86_400
  const dayPart = days > 0 ? `P${days}D` : 'P'
  if (days > 0 && seconds === 0 && fraction === 0) return dayPart
  let frac = ''
  if (fraction !== 0) frac = fraction % 1000 === 0 ? '.' + String(fraction / 1000).padStart(3, '0') : '.' + String(fraction).padStart(6, '0')
  return `${dayPart}T${seconds}${frac}S`
}

/** Parse an RFC 3339 date-time or a `YYYY-MM-DD` date; undefined when it is neither. */
export function parseDateParam(text: string, roundUpDateOnly: boolean): Micros | undefined {
  if (/^\d{4}-\d{2}-\d{2}$/.test(text)) {
    const ms = Date.parse(text + 'T00:00:00Z')
    if (Number.isNaN(ms)) return undefined
    return (ms + (roundUpDateOnly ? 86_400_000 : 0)) * 1000
  }
  const m = /^(\d{4}-\d{2}-\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/.exec(text)
  if (!m) return undefined
  const base = Date.parse(`${m[1]}T${m[2]}:${m[3]}:${m[4]}${m[6] === 'z' ? 'Z' : m[6]}`)
  if (Number.isNaN(base)) return undefined
  // Digits, not a float product: 0.031323 × 1e6 is 31322.999… and would floor a microsecond short.
  const frac = m[5] ? Number((m[5].slice(1) + '000000').slice(0, 6)) : 0
  return base * 1000 + frac
}

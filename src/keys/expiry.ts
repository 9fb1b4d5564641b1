/**
 * A key's `expiresAt` (`parse_expiration_date` in `meilisearch-types/src/keys.rs`): RFC 3339 (any offset, kept
 * for display as Meilisearch keeps it), or, read as UTC, `YYYY-MM-DDTHH:MM:SS`, `YYYY-MM-DD HH:MM:SS` and
 * `YYYY-MM-DD`. The date must be in the future.
 */
import { formatMicros } from '../../engine/tasks/time.js'

/** An instant (microseconds since the epoch, UTC) and the offset it was written with, in minutes. */
export interface Expiry {
  at: number
  offsetMinutes: number
}

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(?:([Zz])|([+-])(\d{2}):(\d{2}))$/
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2}):(\d{2})$/
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/

/** Milliseconds of a UTC calendar date and time, or null when it does not exist (Feb 30, hour 24, ...). */
function utcMillis(y: number, mo: number, d: number, h: number, mi: number, s: number): number | null {
  if (h > 23 || mi > 59 || s > 59) return null
  const date = new Date(0)
  date.setUTCFullYear(y, mo - 1, d)
  date.setUTCHours(h, mi, s, 0)
  return date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d ? date.getTime() : null
}

function parse(text: string): Expiry | null {
  let m = RFC3339.exec(text)
  if (m) {
    const base = utcMillis(+m[1]!, +m[2]!, +m[3]!, +m[4]!, +m[5]!, +m[6]!)
    if (base === null) return null
    const micros = m[7] ? Math.floor(Number(`0.${m[7]}`) * 1e6 + 1e-7) : 0
    let offsetMinutes = 0
    if (!m[8]) {
      const oh = +m[10]!
      const om = +m[11]!
      if (oh > 23 || om > 59) return null
      offsetMinutes = (m[9] === '-' ? -1 : 1) * (oh * 60 + om)
    }
    return { at: (base - offsetMinutes * 60_000) * 1000 + micros, offsetMinutes }
  }
  m = DATE_TIME.exec(text)
  if (m) {
    const ms = utcMillis(+m[1]!, +m[2]!, +m[3]!, +m[4]!, +m[5]!, +m[6]!)
    return ms === null ? null : { at: ms * 1000, offsetMinutes: 0 }
  }
  m = DATE.exec(text)
  if (m) {
    const ms = utcMillis(+m[1]!, +m[2]!, +m[3]!, 0, 0, 0)
    return ms === null ? null : { at: ms * 1000, offsetMinutes: 0 }
  }
  return null
}

/** The expiry `text` names if it is a valid date in the future (after `nowMicros`), else null. */
export function parseExpiresAt(text: string, nowMicros: number): Expiry | null {
  const expiry = parse(text)
  return expiry !== null && expiry.at > nowMicros ? expiry : null
}

export const expiresAtMessage = (text: string) =>
  `\`${text}\` is not a valid date. It should follow the RFC 3339 format to represents a date or datetime in the future or specified as a null value. e.g. 'YYYY-MM-DD' or 'YYYY-MM-DD HH:MM:SS'.\n`

/** RFC 3339 with the offset the date was given with (`Z` for UTC), fraction trimmed as Meilisearch prints it. */
export function formatExpiry({ at, offsetMinutes }: Expiry): string {
  const utc = formatMicros(at + offsetMinutes * 60_000_000)
  if (offsetMinutes === 0) return utc
  const sign = offsetMinutes < 0 ? '-' : '+'
  const abs = Math.abs(offsetMinutes)
  return `${utc.slice(0, -1)}${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`
}

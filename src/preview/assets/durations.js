// @ts-check
/** Task durations as the API gives them (ISO-8601, `PT1.234S`, `P1DT2H`) made readable. */

const ISO_DURATION = /^P(?:(\d+(?:\.\d+)?)D)?(?:T(?:(\d+(?:\.\d+)?)H)?(?:(\d+(?:\.\d+)?)M)?(?:(\d+(?:\.\d+)?)S)?)?$/

/**
 * Seconds of an ISO-8601 duration; null when it is not one.
 * @param {string | null | undefined} text
 */
export function durationSeconds(text) {
  const m = text ? ISO_DURATION.exec(text) : null
  if (!m) return null
  const [, d = '0', hours = '0', min = '0', s = '0'] = m
  return Number(d) * 86400 + Number(hours) * 3600 + Number(min) * 60 + Number(s)
}

/**
 * `PT0.012345S` → `12 ms`, `PT83.5S` → `1 min 23.5 s`.
 * @param {string | null | undefined} text
 */
export function readableDuration(text) {
  const seconds = durationSeconds(text)
  if (seconds === null) return text ?? '—'
  if (seconds < 1) return `${Math.round(seconds * 1000)} ms`
  if (seconds < 60) return `${seconds.toFixed(seconds < 10 ? 2 : 1)} s`
  const m = Math.floor(seconds / 60)
  return m < 60 ? `${m} min ${(seconds % 60).toFixed(1)} s` : `${Math.floor(m / 60)} h ${m % 60} min`
}

// @ts-check
/**
 * How fast the running batch goes and how long it has left, from successive polls of its progress: the count of
 * its innermost step (documents processed out of received) over the last few seconds. Starts over when the batch,
 * its step or its total changes, or the count goes back.
 */

/** Polls older than this no longer weigh on the rate: it follows the batch's current pace. */
export const WINDOW_MS = 10_000

export class ProgressRate {
  constructor() {
    /** @type {string | null} what the samples measure: batch uid, step name and total */
    this.subject = null
    /** @type {{ at: number, finished: number }[]} */
    this.samples = []
  }

  /**
   * Record a poll.
   * @param {string} subject the same string for polls of the same count
   * @param {number} finished
   * @param {number} at milliseconds (performance.now() or Date.now(), one clock)
   */
  add(subject, finished, at) {
    const last = this.samples[this.samples.length - 1]
    if (subject !== this.subject || (last && finished < last.finished)) {
      this.subject = subject
      this.samples = []
    }
    this.samples.push({ at, finished })
    while (this.samples.length > 2 && at - this.samples[0].at > WINDOW_MS) this.samples.shift()
  }

  /** Units per second over the window; null until two polls saw it move. */
  rate() {
    const first = this.samples[0]
    const last = this.samples[this.samples.length - 1]
    if (!first || !last || last.at <= first.at || last.finished <= first.finished) return null
    return ((last.finished - first.finished) * 1000) / (last.at - first.at)
  }

  /**
   * Seconds left at the current rate; null when unknown.
   * @param {number} total
   */
  secondsLeft(total) {
    const rate = this.rate()
    const last = this.samples[this.samples.length - 1]
    if (rate === null || !last) return null
    return Math.max(0, (total - last.finished) / rate)
  }
}

/**
 * `90` → `1 min 30 s`, `4.2` → `4 s`.
 * @param {number} seconds
 */
export function humanSeconds(seconds) {
  if (seconds < 1) return 'under a second'
  const s = Math.round(seconds)
  if (s < 60) return `${s} s`
  const m = Math.floor(s / 60)
  if (m < 60) return `${m} min${s % 60 ? ` ${s % 60} s` : ''}`
  return `${Math.floor(m / 60)} h ${m % 60} min`
}

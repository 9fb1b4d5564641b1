/** Latency summaries: nearest-rank percentiles of a list of times, the form every report gives them in. */

export interface LatencySummary {
  p50: number
  p90: number
  p95: number
  p99: number
  max: number
  mean: number
}

/** Nearest-rank percentiles (and max, mean) of a list of latencies, ms. */
export function summarize(latencies: number[]): LatencySummary {
  if (latencies.length === 0) return { p50: 0, p90: 0, p95: 0, p99: 0, max: 0, mean: 0 }
  const sorted = Float64Array.from(latencies).sort()
  // Nearest-rank percentile.
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))]!
  let sum = 0
  for (const l of sorted) sum += l
  return { p50: at(0.5), p90: at(0.9), p95: at(0.95), p99: at(0.99), max: sorted[sorted.length - 1]!, mean: sum / sorted.length }
}

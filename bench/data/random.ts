/** Seeded randomness for the generated corpora and query mixes: the same seed gives the same draws on every machine. */

/** mulberry32: a small, fast, seeded 32-bit PRNG (uniform in [0, 1)). */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** A Zipf(s) sampler over `n` ranks (0 = the most frequent), by inverse CDF. */
export function zipf(n: number, s: number, rand: () => number): () => number {
  const cdf = new Float64Array(n)
  let sum = 0
  for (let k = 0; k < n; k++) cdf[k] = sum += 1 / (k + 1) ** s
  for (let k = 0; k < n; k++) cdf[k]! /= sum
  return () => {
    const u = rand()
    let lo = 0
    let hi = n - 1
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if (cdf[mid]! < u) lo = mid + 1
      else hi = mid
    }
    return lo
  }
}

/** A standard normal deviate (Box–Muller). */
export function normal(rand: () => number): number {
  const u = Math.max(rand(), 1e-12)
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rand())
}

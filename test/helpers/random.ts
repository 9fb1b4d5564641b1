/**
 * A seeded pseudo-random generator for tests (a 32-bit linear congruential generator in exact integer
 * arithmetic, returning its high bits: the low bits of such a generator cycle quickly).
 */
export function seededRandom(seed: number): { int(n: number): number; float(): number } {
  let state = seed >>> 0
  const next = () => (state = (Math.imul(state, 1664525) + 1013904223) >>> 0)
  return {
    /** An integer in [0, n). */
    int: (n) => Math.floor((next() / 2 ** 32) * n),
    /** A number in [0, 1). */
    float: () => next() / 2 ** 32,
  }
}

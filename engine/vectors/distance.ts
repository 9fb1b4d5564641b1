/**
 * Similarities of vectors, and binary quantization. Scores follow Meilisearch's: a semantic hit's score is
 * `(1 + cosine) / 2`, so 1 is the same direction and 0 the opposite one.
 */

export function dot(a: Float32Array, b: Float32Array): number {
  let s = 0
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!
  return s
}

export function norm(a: Float32Array): number {
  return Math.sqrt(dot(a, a))
}

/** Cosine similarity; 0 when either vector is all zeros. */
export function cosine(a: Float32Array, b: Float32Array, normA = norm(a), normB = norm(b)): number {
  return normA === 0 || normB === 0 ? 0 : dot(a, b) / (normA * normB)
}

/** Norms of stored vectors, computed once: an exact scan then costs one pass over each vector instead of two. */
const storedNorms = new WeakMap<Float32Array, number>()

/** The norm of a stored vector (which never changes once stored). */
export function storedNorm(v: Float32Array): number {
  let n = storedNorms.get(v)
  if (n === undefined) storedNorms.set(v, (n = norm(v)))
  return n
}

/**
 * Meilisearch's score of a semantic hit from its cosine similarity, clamped to [0, 1]: arroy's distance
 * `(1 - cos) / 2` and milli's `1 - distance`, both in f32 as they compute them, so scores match to the bit.
 */
export function scoreOf(similarity: number): number {
  const f = Math.fround
  const cos = Math.min(1, Math.max(-1, f(similarity)))
  return f(1 - f(f(1 - cos) / 2))
}

/**
 * Cosine similarity computed in f32 as arroy computes it (dot product and norms in f32, in order), for the few
 * hits a search returns: the scores Meilisearch shows then match exactly where the f64 cosine can differ by an
 * f32 step or two. 0 when either vector is all zeros, as `cosine`.
 */
export function f32Cosine(a: Float32Array, b: Float32Array): number {
  const f = Math.fround
  let ab = 0, aa = 0, bb = 0
  for (let i = 0; i < a.length; i++) {
    ab = f(ab + f(a[i]! * b[i]!))
    aa = f(aa + f(a[i]! * a[i]!))
    bb = f(bb + f(b[i]! * b[i]!))
  }
  const norms = f(f(Math.sqrt(aa)) * f(Math.sqrt(bb)))
  return norms === 0 ? 0 : Math.min(1, Math.max(-1, f(ab / norms)))
}

/** One bit per dimension, set when the value is positive (the sign is what a binary quantized vector keeps). */
export function quantize(v: Float32Array): Uint8Array {
  const out = new Uint8Array((v.length + 7) >> 3)
  for (let i = 0; i < v.length; i++) if (v[i]! > 0) out[i >> 3]! |= 1 << (i & 7)
  return out
}

/** The rescoring copy of a vector: one signed byte per dimension, scaled so the largest component is ±127. */
export function quantize8(v: Float32Array): Int8Array {
  let max = 0
  for (let i = 0; i < v.length; i++) max = Math.max(max, Math.abs(v[i]!))
  const out = new Int8Array(v.length)
  if (max === 0) return out
  const scale = 127 / max
  for (let i = 0; i < v.length; i++) out[i] = Math.round(v[i]! * scale)
  return out
}

/** Cosine similarity between a full-precision query and an int8 rescoring copy (the scale cancels out). */
export function cosineToInt8(query: Float32Array, v: Int8Array, queryNorm = norm(query)): number {
  let d = 0
  let n = 0
  for (let i = 0; i < query.length; i++) { d += query[i]! * v[i]!; n += v[i]! * v[i]! }
  return queryNorm === 0 || n === 0 ? 0 : d / (queryNorm * Math.sqrt(n))
}

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
export function cosine(a: Float32Array, b: Float32Array, normA = norm(a)): number {
  const nb = norm(b)
  return normA === 0 || nb === 0 ? 0 : dot(a, b) / (normA * nb)
}

/** Meilisearch's score of a semantic hit from its cosine similarity, clamped to [0, 1]. */
export function scoreOf(similarity: number): number {
  return Math.min(1, Math.max(0, (1 + similarity) / 2))
}

/** One bit per dimension, set when the value is positive (the sign is what a binary quantized vector keeps). */
export function quantize(v: Float32Array): Uint8Array {
  const out = new Uint8Array((v.length + 7) >> 3)
  for (let i = 0; i < v.length; i++) if (v[i]! > 0) out[i >> 3]! |= 1 << (i & 7)
  return out
}

const POPCOUNT = new Uint8Array(256).map((_, i) => { let n = 0; for (let x = i; x > 0; x >>= 1) n += x & 1; return n })

/** Number of differing bits. */
export function hamming(a: Uint8Array, b: Uint8Array): number {
  let d = 0
  for (let i = 0; i < a.length; i++) d += POPCOUNT[a[i]! ^ b[i]!]!
  return d
}

/**
 * Cosine similarity between a full-precision query and a quantized vector read as ±1 in every dimension: the
 * rescoring step of a binary quantized search (the query keeps its precision; only the documents lost theirs).
 */
export function cosineToBits(query: Float32Array, bits: Uint8Array, queryNorm = norm(query)): number {
  if (queryNorm === 0) return 0
  let s = 0
  for (let i = 0; i < query.length; i++) s += (bits[i >> 3]! >> (i & 7)) & 1 ? query[i]! : -query[i]!
  return s / (queryNorm * Math.sqrt(query.length))
}

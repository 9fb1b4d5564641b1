/**
 * The failure of a `userProvided` embedder asked for vectors a document does not bring (Meilisearch's extractor:
 * "no vectors provided for document"), with its hints: top-level fields that look like a misspelt `_vectors`
 * (within two edits) and `_vectors` keys no embedder uses that look like a misspelt embedder name, at most two of
 * each with the number of documents of the chunk having them; without any, the hint to opt out with `null`.
 */
import { TesseraError } from '../errors/index.js'
import { editDistance } from '../errors/edit-distance.js'
import type { Document } from '../payload/documents.js'

const near = (a: string, b: string) => {
  const d = editDistance(a, b)
  return d > 0 && d <= 2
}

/** Counts of `key`s over `docs`, keys in byte order (Meilisearch's BTreeMap). */
function counts(keys: Iterable<string>): [string, number][] {
  const map = new Map<string, number>()
  for (const k of keys) map.set(k, (map.get(k) ?? 0) + 1)
  return [...map].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
}

export function missingUserVectors(name: string, embedders: readonly string[], missing: readonly { doc: Document; id: string }[], chunk: readonly Document[]): TesseraError {
  const others = missing.length > 1 ? ` and at least ${missing.length - 1} other document(s)` : ''
  let message = `While embedding documents for embedder \`${name}\`: no vectors provided for document \`${missing[0]!.id}\`${others}`
  message += `\n- Note: \`${name}\` has \`source: userProvided\`, so documents must provide embeddings as an array in \`_vectors.${name}\`.`
  const vectorMistakes = counts(chunk.flatMap((doc) => Object.keys(doc).filter((f) => !f.includes('.') && near(f, '_vectors')))).slice(0, 2)
  const unused = chunk.flatMap((doc) => {
    const v = doc._vectors
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? Object.keys(v).filter((k) => !embedders.includes(k)) : []
  })
  const embedderMistakes = counts(unused).filter(([k]) => near(k, name)).slice(0, 2)
  for (const [field, count] of vectorMistakes) message += `\n- Hint: try replacing \`${field}\` by \`_vectors\` in ${count} document(s).`
  for (const [key, count] of embedderMistakes) message += `\n- Hint: try replacing \`_vectors.${key}\` by \`_vectors.${name}\` in ${count} document(s).`
  if (vectorMistakes.length + embedderMistakes.length === 0) message += `\n- Hint: opt-out for a document with \`_vectors.${name}: null\``
  return new TesseraError('vector_embedding_error', message)
}

/**
 * `_vectors[.embedder[.userProvided|.documentTemplate|.regenerate]] EXISTS` over the vector store, as milli's
 * `filter/vector.rs` evaluates it: documents with vectors for the embedder (every configured one when none is
 * named), those marked user-provided, those with vectors not user-provided, those whose vectors may be regenerated.
 * An embedder that is not configured is an error located on its token.
 */
import { RoaringBitmap32, type Bitmap } from '../inverted/index.js'
import { TesseraError, type ErrorCode } from '../errors/index.js'
import { atToken } from '../filter/errors.js'
import type { FilterExpression } from '../filter/index.js'
import type { IndexVectors } from './space.js'

type VectorExpression = Extract<FilterExpression, { type: 'vectorExists' }>

/** Per document, what a selector asks of its entry (entries without vectors only count for `userProvided`). */
interface EntryLike { vectors: unknown[]; packed: unknown[]; userProvided: boolean; regenerate: boolean }

export function vectorFilter(expr: VectorExpression, vectors: IndexVectors, configured: readonly string[], code: ErrorCode, indexUid: string): Bitmap {
  const names = expr.embedder ? [expr.embedder.value] : configured
  if (expr.embedder && !configured.includes(expr.embedder.value)) {
    const available = [...configured].sort()
    const tail = available.length === 0 ? 'This index does not have any configured embedders.' : `Available embedders are: ${available.map((e) => `\`${e}\``).join(', ')}.`
    throw new TesseraError(code, `Index \`${indexUid}\`: ` + atToken(expr.embedder, `The embedder \`${expr.embedder.value}\` does not exist. ${tail}`))
  }
  const out: number[] = []
  for (const name of names) {
    const space = vectors.get(name)
    if (!space) continue
    for (const [docid, e] of space.entries) if (selects(expr, e)) out.push(docid)
  }
  return RoaringBitmap32.from(out.sort((a, b) => a - b))
}

function selects(expr: VectorExpression, e: EntryLike): boolean {
  const has = e.vectors.length + e.packed.length > 0
  switch (expr.selector.kind) {
    case 'all': return has
    case 'userProvided': return e.userProvided
    case 'documentTemplate': return has && !e.userProvided
    case 'regenerate': return has && e.regenerate
    case 'fragment': return false
  }
}

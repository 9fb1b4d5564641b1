/** A worker thread that answers word lookups on an inverted index rebuilt from a view handed to it (inverted-view.test.ts). */
import { parentPort } from 'node:worker_threads'
import { InvertedIndex, type InvertedView } from '../../../engine/inverted/index.js'

interface Ask { view: InvertedView; words: string[] }

// Imported by the test too (for `lookups`): only a worker listens.
parentPort?.on('message', ({ view, words }: Ask) => {
  const index = InvertedIndex.fromView(view)
  parentPort!.postMessage(words.map((w) => lookups(index, w)))
})

/** What keyword search asks of the dictionary and postings for a query word. */
export function lookups(index: InvertedIndex, word: string): unknown {
  const id = index.wordId(word)
  return {
    word,
    id: id ?? null,
    docids: index.docids(word)?.toArray() ?? null,
    prefix: index.dictionary.withPrefix(word, 50),
    typos: index.dictionary.fuzzy(word, 2, { prefix: true, quota: [0, 20, 20] }),
    otherFirst: index.dictionary.fuzzy(word, 1, { otherFirst: true }),
    fields: id === undefined ? null : index.fieldPostings(id).map((b) => b.toArray()),
    positions: id === undefined ? null : index.positionPostings(id).map((b) => b.size),
  }
}

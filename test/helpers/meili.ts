/** What tests compare Meilisearch's answers with: its error bodies and the documents of its own test suite. */

type Doc = Record<string, unknown>

/** The documentation link Meilisearch puts in an error body. */
const errorLink = (code: string) => `https://docs.meilisearch.com/errors#${code}`

/** A Meilisearch error body. */
export const err = (message: string, code: string, type = 'invalid_request') => ({ message, code, type, link: errorLink(code) })

/** tests/common/mod.rs `DOCUMENTS` (without `_vectors`). */
export const MOVIES: Doc[] = [
  { title: 'Shazam!', id: '287947', color: ['green', 'blue'] },
  { title: 'Captain Marvel', id: '299537', color: ['yellow', 'blue'] },
  { title: 'Escape Room', id: '522681', color: ['yellow', 'red'] },
  { title: 'How to Train Your Dragon: The Hidden World', id: '166428', color: ['green', 'red'] },
  { title: 'Gläss', id: '450465', color: ['blue', 'red'] },
]

/** tests/common/mod.rs `NESTED_DOCUMENTS` (without `_vectors`). */
export const NESTED: Doc[] = [
  { id: 852, father: 'jean', mother: 'michelle', doggos: [{ name: 'bobby', age: 2 }, { name: 'buddy', age: 4 }], cattos: 'pésti' },
  { id: 654, father: 'pierre', mother: 'sabine', doggos: [{ name: 'gros bill', age: 8 }], cattos: ['simba', 'pestiféré'] },
  { id: 750, father: 'romain', mother: 'michelle', cattos: ['enigma'] },
  { id: 951, father: 'jean-baptiste', mother: 'sophie', doggos: [{ name: 'turbo', age: 5 }, { name: 'fast', age: 6 }], cattos: ['moumoute', 'gomez'] },
]

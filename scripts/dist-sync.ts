/**
 * Keeps dist/ in step with the TypeScript sources, for the build that every command runs first.
 *
 * `npm run build` touches dist/.build-begun before `tsc`, then `node dist/scripts/dist-sync.js prune` removes the
 * compiled files whose source is gone (tsc never deletes an output, so a renamed or deleted module would stay
 * importable and a removed test would still run: the suite runs the compiled tests, dist/test/), then records which
 * sources that build saw, dated when it began (a source saved while tsc ran is newer, so the next check rebuilds).
 *
 * `node dist/scripts/dist-sync.js check` exits 0 when no source was added, removed or modified since that record,
 * so `npm test`, `npm run bench` and `npm run chaos` skip a build that would change nothing: even with nothing to
 * emit, tsc parses and binds the whole program again (about 15 s of CPU here), and CI builds five times.
 */
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'

const DIST = fileURLToPath(new URL('..', import.meta.url))
const ROOT = join(DIST, '..')
/** What tsc writes for one source file. */
const OUTPUT = /\.(js|js\.map|d\.ts|d\.ts\.map)$/
/** The files whose change changes every output. */
const CONFIGS = ['tsconfig.json', 'tsconfig.build.json']
/** The folders the build compiles: tsconfig.build.json's own `include`, read rather than written again here. */
const SOURCE_DIRS: string[] = JSON.parse(readFileSync(join(ROOT, 'tsconfig.build.json'), 'utf8')).include
/** The record of the last build's sources (its modification time is when that build began). */
const RECORD = join(DIST, '.sources')
/** Touched by `npm run build` before tsc: its modification time is the running build's start. */
const BEGUN = join(DIST, '.build-begun')

function prune(dir: string): number {
  let removed = 0
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) {
      removed += prune(path)
      continue
    }
    if (!OUTPUT.test(entry.name)) continue
    const source = join(ROOT, relative(DIST, path)).replace(OUTPUT, '.ts')
    if (!existsSync(source)) {
      rmSync(path)
      removed++
    }
  }
  return removed
}

/** Every TypeScript source tsc compiles, as paths from the package root (tsc skips node_modules folders too). */
function sources(dir: string, into: string[]): string[] {
  for (const entry of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules') sources(path, into)
    } else if (entry.name.endsWith('.ts')) {
      into.push(path)
    }
  }
  return into
}

function allSources(): string[] {
  const found: string[] = []
  for (const dir of SOURCE_DIRS) sources(dir, found)
  return found.sort()
}

/** True when the last build saw exactly these sources and none of them (nor a tsconfig) changed after it. */
function fresh(): boolean {
  if (!existsSync(RECORD)) return false
  const built = statSync(RECORD).mtimeMs
  const current = allSources()
  if (readFileSync(RECORD, 'utf8') !== current.join('\n')) return false
  return [...current, ...CONFIGS].every((path) => statSync(join(ROOT, path)).mtimeMs < built)
}

const command = process.argv[2]
if (command === 'prune') {
  let removed = 0
  for (const entry of readdirSync(DIST, { withFileTypes: true })) {
    if (entry.isDirectory()) removed += prune(join(DIST, entry.name))
  }
  if (removed > 0) process.stdout.write(`dist-sync: removed ${removed} compiled files whose source is gone\n`)
  // Without a start time (tsc run by hand) nothing is recorded: the next check builds once more, at no risk.
  if (existsSync(BEGUN)) {
    const began = statSync(BEGUN).mtime
    writeFileSync(BEGUN, allSources().join('\n'))
    utimesSync(BEGUN, began, began)
    renameSync(BEGUN, RECORD)
  }
} else if (command === 'check') {
  process.exitCode = fresh() ? 0 : 1
} else {
  process.stderr.write('usage: node dist/scripts/dist-sync.js prune|check\n')
  process.exitCode = 2
}

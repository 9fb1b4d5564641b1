/**
 * The build every command runs first: TypeScript sources to dist/, and dist/ kept in step with them.
 *
 * `npm run build` transpiles this file alone with esbuild, then runs it (`node dist/scripts/build.js`): it transpiles
 * every source of tsconfig.json's `include` folders to dist/ with esbuild, one module per source (no bundling, so
 * dist/ mirrors the tree and each file keeps its own source map), removes the compiled files whose source is gone
 * (a renamed or deleted module would stay importable and a removed test would still run: the suite runs the
 * compiled tests, dist/test/), then records which sources that build saw, dated when it began (a source saved while
 * the build ran is newer, so the next check builds again).
 *
 * Transpiling checks no type: `npm run typecheck` (tsc --noEmit) does, and CI runs it (.ci/run). tsc emitting
 * the same files took 41-50 s of an install (its `prepare` script) and 15 s of CPU to find nothing to emit; esbuild
 * takes about 2 s for all of them. `isolatedModules` in tsconfig.json makes tsc refuse what a one-file-at-a-time
 * transpiler cannot compile (a re-exported type without `export type`, an ambient const enum).
 *
 * `node dist/scripts/build.js check` exits 0 when no source was added, removed or modified since that record, so
 * `npm test`, `npm run bench` and `npm run chaos` skip a build that would change nothing.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'

const DIST = fileURLToPath(new URL('..', import.meta.url))
const ROOT = join(DIST, '..')
/** What a build writes for one source file. */
const OUTPUT = /\.(js|js\.map)$/
/** What tsc builds wrote and this build does not: declarations, and tsc's incremental record (dist/.tsbuildinfo). */
const TSC_ONLY = /\.d\.ts(\.map)?$|^\.tsbuildinfo$/
/** The file whose change changes every output. */
const CONFIG = 'tsconfig.json'
/** The folders the build compiles: tsconfig.json's own `include`, read rather than written again here. */
const SOURCE_DIRS: string[] = JSON.parse(readFileSync(join(ROOT, CONFIG), 'utf8')).include
/** The record of the last build's sources (its modification time is when that build began). */
const RECORD = join(DIST, '.sources')
/** Written when a build begins: its modification time is the running build's start. */
const BEGUN = join(DIST, '.build-begun')

/** Removes the outputs under `dir` whose source is gone, and tsc's leftovers; returns how many. */
function prune(dir: string): number {
  let removed = 0
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) {
      removed += prune(path)
      continue
    }
    if (TSC_ONLY.test(entry.name)) {
      rmSync(path)
      removed++
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

/** Every TypeScript source the build compiles, as paths from the package root (node_modules folders skipped, as tsc does). */
function sources(dir: string, into: string[]): string[] {
  for (const entry of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules') sources(path, into)
    } else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) {
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
  return [...current, CONFIG].every((path) => statSync(join(ROOT, path)).mtimeMs < built)
}

async function buildAll(): Promise<void> {
  mkdirSync(DIST, { recursive: true })
  rmSync(RECORD, { force: true })
  writeFileSync(BEGUN, '')
  const began = statSync(BEGUN).mtime
  const found = allSources()
  await build({
    entryPoints: found.map((path) => join(ROOT, path)),
    outdir: DIST,
    outbase: ROOT,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    sourcemap: true,
    tsconfig: join(ROOT, CONFIG),
    logLevel: 'warning',
  })
  const removed = prune(DIST)
  if (removed > 0) process.stdout.write(`build: removed ${removed} stale files (compiled from a source now gone, or left by tsc)\n`)
  writeFileSync(BEGUN, found.join('\n'))
  utimesSync(BEGUN, began, began)
  renameSync(BEGUN, RECORD)
}

const command = process.argv[2] ?? 'build'
if (command === 'build') {
  await buildAll()
} else if (command === 'check') {
  process.exitCode = fresh() ? 0 : 1
} else {
  process.stderr.write('usage: node dist/scripts/build.js [build|check]\n')
  process.exitCode = 2
}

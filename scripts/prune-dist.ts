/**
 * After `tsc`: removes the compiled files in dist/ whose TypeScript source is gone. tsc never deletes an output,
 * so a renamed or deleted module would otherwise stay importable from dist/, and a removed test would still run
 * (the suite runs the compiled tests, dist/test/). Run by `npm run build`.
 */
import { existsSync, readdirSync, rmSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'

const DIST = fileURLToPath(new URL('..', import.meta.url))
const ROOT = join(DIST, '..')
/** What tsc writes for one source file. */
const OUTPUT = /\.(js|js\.map|d\.ts|d\.ts\.map)$/

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

let removed = 0
for (const entry of readdirSync(DIST, { withFileTypes: true })) {
  if (entry.isDirectory()) removed += prune(join(DIST, entry.name))
}
if (removed > 0) process.stdout.write(`prune-dist: removed ${removed} compiled files whose source is gone\n`)

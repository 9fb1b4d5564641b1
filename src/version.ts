import { readFileSync } from 'node:fs'
import { execFileSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { dirname, join } from 'node:path'

/** The package root, from src/ or dist/src/. */
export const PACKAGE_ROOT = (() => {
  let dir = dirname(fileURLToPath(import.meta.url))
  while (!safeRead(join(dir, 'package.json'))?.includes('"name": "tessera"')) {
    const parent = dirname(dir)
    if (parent === dir) break
    dir = parent
  }
  return dir
})()

function safeRead(path: string): string | undefined {
  try { return readFileSync(path, 'utf8') } catch { return undefined }
}

function git(args: string[]): string {
  try {
    return execFileSync('git', args, { cwd: PACKAGE_ROOT, stdio: ['ignore', 'pipe', 'ignore'] }).toString().trim() || 'unknown'
  } catch {
    return 'unknown'
  }
}

export const VERSION = {
  pkgVersion: (JSON.parse(safeRead(join(PACKAGE_ROOT, 'package.json')) ?? '{}') as { version?: string }).version ?? 'unknown',
  commitSha: git(['rev-parse', 'HEAD']),
  commitDate: git(['log', '-1', '--format=%cI']),
}

/** What every report says about the machine and the build it measured: CPU, memory, Node, Tessera's version and commit. */
import { execFileSync } from 'node:child_process'
import { arch, cpus, loadavg, platform, release, totalmem } from 'node:os'
import { PACKAGE_ROOT, VERSION } from '../../src/version.js'

export interface Machine {
  cpus: number
  cpuModel: string
  platform: string
  release: string
  arch: string
  node: string
  totalMemoryGiB: number
  loadAverageAtStart: number[]
  /** Tessera's package version, and the git commit of the checkout (null outside one; `dirty` with local changes). */
  tessera?: string
  gitCommit?: string | null
  gitDirty?: boolean | null
}

export function machineInfo(): Machine {
  const list = cpus()
  return {
    cpus: list.length,
    cpuModel: list[0]?.model.trim() ?? 'unknown',
    platform: platform(),
    release: release(),
    arch: arch(),
    node: process.version,
    totalMemoryGiB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    loadAverageAtStart: loadavg().map((l) => Math.round(l * 100) / 100),
    tessera: VERSION.pkgVersion,
    ...gitState(),
  }
}

/** The checkout's commit and whether it has local changes (nulls without git or outside a checkout). */
function gitState(): { gitCommit: string | null; gitDirty: boolean | null } {
  const git = (args: string[]) => execFileSync('git', args, { cwd: PACKAGE_ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 5000 }).trim()
  try {
    return { gitCommit: git(['rev-parse', 'HEAD']), gitDirty: git(['status', '--porcelain', '--untracked-files=no']).length > 0 }
  } catch {
    return { gitCommit: null, gitDirty: null }
  }
}

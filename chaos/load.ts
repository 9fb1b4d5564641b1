/**
 * `npm run chaos -- load`: the whole test suite beside a CPU hog (one busy process per core), `--runs N` times in a
 * row (default 3); it passes only if every run passes. It proves the tests wait on events and bounds that hold on a
 * busy machine rather than on fixed windows. Too long for CI: run it before merging test changes.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { availableParallelism } from 'node:os'
import { PACKAGE_ROOT } from '../src/version.js'

export interface LoadOptions { runs: number; hogs: number }

function hog(): ChildProcess {
  return spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' })
}

function suite(): Promise<number | null> {
  return new Promise((resolve) => {
    const tap = spawn('npx', ['tap'], { cwd: PACKAGE_ROOT, stdio: 'inherit' })
    tap.on('exit', (code) => resolve(code))
  })
}

export async function loadRun(options: LoadOptions): Promise<boolean> {
  const hogs = Array.from({ length: options.hogs }, hog)
  console.log(`load: the test suite ${options.runs} times beside ${options.hogs} busy processes`)
  try {
    for (let run = 1; run <= options.runs; run++) {
      const started = Date.now()
      const code = await suite()
      console.log(`load: run ${run}/${options.runs} ${code === 0 ? 'passed' : `FAILED (exit ${code})`} in ${((Date.now() - started) / 1000).toFixed(0)} s`)
      if (code !== 0) return false
    }
    return true
  } finally {
    for (const h of hogs) h.kill('SIGKILL')
  }
}

export const DEFAULT_HOGS = availableParallelism()

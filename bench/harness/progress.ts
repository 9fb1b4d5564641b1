/**
 * A progress bar on stderr for each step of a scenario: redrawn in place on a terminal, and printed as a line at
 * 25 % steps otherwise (CI logs stay short). `done()` ends it with the step's result.
 */
export interface Progress {
  /** Set the completed amount (out of the bar's total). */
  update(completed: number, detail?: string): void
  /** Print a line of its own (above the bar on a terminal, which is then redrawn). */
  log(line: string): void
  /** End the bar with a one-line result. */
  done(result?: string): void
}

const WIDTH = 24

export function progress(label: string, total: number, stream: NodeJS.WriteStream = process.stderr): Progress {
  const tty = stream.isTTY === true
  const start = performance.now()
  let lastDraw = 0
  let lastQuarter = -1
  let ended = false
  let last = { completed: 0, detail: undefined as string | undefined }
  const line = (completed: number, detail?: string) => {
    const fraction = total > 0 ? Math.min(1, Math.max(0, completed / total)) : 0
    const filled = Math.round(fraction * WIDTH)
    const seconds = ((performance.now() - start) / 1000).toFixed(1)
    return `bench: ${label} [${'#'.repeat(filled)}${'.'.repeat(WIDTH - filled)}] ${Math.floor(fraction * 100).toString().padStart(3)} % ${seconds} s${detail ? ` ${detail}` : ''}`
  }
  return {
    update(completed, detail) {
      if (ended) return
      last = { completed, detail }
      if (tty) {
        const now = performance.now()
        if (now - lastDraw < 100 && completed < total) return
        lastDraw = now
        stream.write(`\r${line(completed, detail)}\x1b[K`)
        return
      }
      const quarter = total > 0 ? Math.floor((4 * Math.min(completed, total)) / total) : 0
      if (quarter > lastQuarter && quarter < 4) {
        lastQuarter = quarter
        stream.write(line(completed, detail) + '\n')
      }
    },
    log(text) {
      if (!tty || ended) { stream.write(text + '\n'); return }
      stream.write(`\r${text}\x1b[K\n${line(last.completed, last.detail)}`)
    },
    done(result) {
      if (ended) return
      ended = true
      const seconds = ((performance.now() - start) / 1000).toFixed(1)
      const text = `bench: ${label} done in ${seconds} s${result ? `: ${result}` : ''}`
      stream.write(tty ? `\r${text}\x1b[K\n` : text + '\n')
    },
  }
}

/** Run `work`; if it fails, end `bar` with the failure (and rethrow), so a failed step never leaves a bar open. */
export async function tracked<T>(bar: Progress, work: () => Promise<T>): Promise<T> {
  try {
    return await work()
  } catch (err) {
    bar.done(`FAILED: ${err instanceof Error ? err.message : String(err)}`)
    throw err
  }
}

/**
 * Run `work` under a bar whose total is in seconds (a load window: warm-up plus measurement), advancing it with the
 * time elapsed every 250 ms until the work ends. The caller ends the bar with the result.
 */
export async function clocked<T>(bar: Progress, work: () => Promise<T>): Promise<T> {
  const t = performance.now()
  const timer = setInterval(() => bar.update((performance.now() - t) / 1000), 250)
  try {
    return await work()
  } finally {
    clearInterval(timer)
  }
}

/**
 * CPU accounting from /proc (Linux): a process's CPU time and the whole machine's busy time, so that every window
 * can say how much CPU the server, the bench itself and everything else took. Nulls where /proc is unavailable.
 */
import { readFileSync } from 'node:fs'

/**
 * CPU time (user + system, in ms) the process has used so far, from /proc (Linux). Includes all of its threads
 * (libuv, RocksDB, worker pool). Null where /proc is unavailable.
 */
export function processCpuMs(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    // The command name (field 2) may contain spaces; the fields after its closing parenthesis are plain.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    // utime and stime are fields 14 and 15 of the file, i.e. 11 and 12 after the name; in clock ticks,
    // which are 100 per second on every Linux this runs on (USER_HZ).
    const ticks = Number(fields[11]) + Number(fields[12])
    return Number.isFinite(ticks) ? ticks * 10 : null
  } catch {
    return null
  }
}

/** `to − from`, or null when either reading is missing. */
export function elapsed(from: number | null, to: number | null): number | null {
  return from === null || to === null ? null : to - from
}

/**
 * The CPU share (% of one core) other processes took during a window of `wallMs`: the machine's busy time less the
 * server's and this process's (all in ms). /proc counts in 10 ms ticks: small negative values are rounding, shown
 * as 0. Null when a reading is missing.
 */
export function otherCpuPercent(systemMs: number | null, serverMs: number | null, clientMs: number, wallMs: number): number | null {
  if (systemMs === null || serverMs === null || wallMs <= 0) return null
  return Math.max(0, (100 * (systemMs - serverMs - clientMs)) / wallMs)
}

/**
 * CPU time (ms, summed over all cores) the whole machine has spent busy so far, from /proc/stat: everything
 * but idle and iowait. With processCpuMs it tells how much CPU other processes took during a window.
 */
export function systemBusyMs(): number | null {
  const f = machineTicks()
  if (f === null) return null
  const [user, nice, system, , , irq, softirq, steal] = f
  return (user + nice + system + irq + softirq + steal) * 10
}

/**
 * CPU time (ms, summed over all cores) the whole machine has spent idle so far with nothing waiting on a disk
 * (/proc/stat's idle, without iowait): time in which a runnable thread would have run.
 */
export function systemIdleMs(): number | null {
  const f = machineTicks()
  return f === null ? null : f[3] * 10
}

type MachineTicks = [number, number, number, number, number, number, number, number]

/** The first line of /proc/stat: user nice system idle iowait irq softirq steal (guest time is already in user). */
function machineTicks(): MachineTicks | null {
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]!
    const f = line.trim().split(/\s+/).slice(1, 9).map(Number)
    if (f.length < 8 || f.some((n) => !Number.isFinite(n))) return null
    return f as MachineTicks
  } catch {
    return null
  }
}

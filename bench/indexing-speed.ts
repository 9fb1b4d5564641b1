/**
 * Indexing speed in process, by hand (not part of `npm run bench`): a corpus built by `npm run corpora` is added to
 * a fresh engine (a pool of `--threads` workers, as the service has) as one NDJSON payload read from the file in
 * 1 MB chunks, and the time from `addDocuments` to the task's success is taken; then the same documents go into
 * SQLite FTS5 (as the bench's peer: WAL, one transaction) in this process. `--rounds` repeats both, interleaved;
 * the medians are printed. Less noise than the search scenario (no HTTP, no peers' children), for before/after pairs.
 *
 *   node dist/bench/indexing-speed.js [--corpus gcide] [--rounds 3] [--threads 2] [--no-fts5] [--keep]
 */
import { createReadStream, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { parseArgs } from 'node:util'
import { CORPORA_DIR, resolveCorpus } from './data/corpora/registry.js'
import { engineFor } from './peers/engines.js'

const { values } = parseArgs({ options: {
  corpus: { type: 'string', default: 'gcide' }, rounds: { type: 'string', default: '3' }, threads: { type: 'string', default: '2' },
  'no-fts5': { type: 'boolean', default: false }, keep: { type: 'boolean', default: false },
} })
const corpus = resolveCorpus(values.corpus!, CORPORA_DIR)
const searchable = corpus.searchable ?? []
const rounds = Number(values.rounds)

/** Seconds from the addition to its success, and the process's CPU seconds meanwhile (every thread, RocksDB's too). */
async function tessera(): Promise<{ seconds: number; cpu: number }> {
  const { Engine, addDocuments, updateSettings, getTask } = await import('../engine/index.js')
  const { createWorkerPool } = await import('../workers/pool.js')
  const dir = mkdtempSync(join(tmpdir(), 'tessera-indexing-speed-'))
  const pool = createWorkerPool(Number(values.threads))
  const engine = await Engine.open({ path: dir, pool })
  const settle = async (uid: number) => {
    for (;;) {
      const task = getTask(engine, uid)
      if (task.status === 'succeeded') return
      if (task.status === 'failed' || task.status === 'canceled') throw new Error(JSON.stringify(task.error))
      await new Promise((r) => setTimeout(r, 25))
    }
  }
  try {
    await settle((await updateSettings(engine, 'corpus', { searchableAttributes: searchable })).taskUid)
    const t0 = performance.now()
    const cpu0 = process.cpuUsage()
    const threads0 = threadTimes()
    const task = await addDocuments(engine, 'corpus', createReadStream(corpus.path, { highWaterMark: 1 << 20 }),
      { method: 'replace', format: 'ndjson', csvDelimiter: ',', primaryKey: 'id', allowIndexCreation: true })
    await settle(task.taskUid)
    const cpu = process.cpuUsage(cpu0)
    if (process.env.THREADS_CPU) console.log(`  CPU s by thread: ${busiest(threads0, threadTimes())}`)
    return { seconds: (performance.now() - t0) / 1000, cpu: (cpu.user + cpu.system) / 1e6 }
  } finally {
    await engine.close()
    await pool.close()
    if (values.keep) console.log(`kept ${dir}`)
    else rmSync(dir, { recursive: true, force: true })
  }
}

/** Seconds SQLite FTS5 takes to create its table and index the documents: the bench's own peer (peers/engines.ts). */
async function fts5(docs: Record<string, unknown>[]): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'tessera-indexing-fts5-'))
  try {
    const t0 = performance.now()
    const peer = await engineFor('sqlite-fts5', searchable, 'id', dir)
    await peer.add(docs)
    return (performance.now() - t0) / 1000
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** CPU seconds of each live thread of this process by thread id, with its name (Linux: /proc/self/task). */
function threadTimes(): Map<string, { name: string; cpu: number }> {
  const out = new Map<string, { name: string; cpu: number }>()
  for (const tid of readdirSync('/proc/self/task')) {
    try {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8')
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
      out.set(tid, { name: readFileSync(`/proc/self/task/${tid}/comm`, 'utf8').trim(), cpu: (Number(fields[11]) + Number(fields[12])) / 100 })
    } catch { /* the thread ended meanwhile */ }
  }
  return out
}

/** CPU seconds of the busiest threads between two `threadTimes` (threads that ended before `after` are not counted). */
function busiest(before: Map<string, { name: string; cpu: number }>, after: Map<string, { name: string; cpu: number }>): string {
  const used = [...after].map(([tid, t]) => [tid === String(process.pid) ? 'main' : `${t.name}:${tid}`, t.cpu - (before.get(tid)?.cpu ?? 0)] as const)
  return used.filter(([, s]) => s >= 0.1).sort((a, b) => b[1] - a[1]).map(([n, s]) => `${n} ${s.toFixed(1)}`).join(', ')
}

/** This process's peak resident memory (VmHWM), MB. */
function peakRssMb(): number {
  const hwm = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'))
  return hwm ? Math.round(Number(hwm[1]) / 1024) : NaN
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
const docs = values['no-fts5'] ? [] : readFileSync(corpus.path, 'utf8').split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as Record<string, unknown>)
const count = values['no-fts5'] ? readFileSync(corpus.path, 'utf8').split('\n').filter((l) => l !== '').length : docs.length
const ours: number[] = []
const cpus: number[] = []
const theirs: number[] = []
for (let r = 0; r < rounds; r++) {
  const { seconds: s, cpu } = await tessera()
  ours.push(s)
  cpus.push(cpu)
  let line = `round ${r + 1}: tessera ${s.toFixed(2)} s (${Math.round(count / s)} docs/s, ${cpu.toFixed(1)} CPU s)`
  if (!values['no-fts5']) {
    const f = await fts5(docs)
    theirs.push(f)
    line += `, fts5 ${f.toFixed(2)} s (${Math.round(count / f)} docs/s)`
  }
  console.log(`${line}, load ${loadavg()[0]!.toFixed(2)}, peak RSS so far ${peakRssMb()} MB`)
}
const m = median(ours)
let summary = `${corpus.name} (${count} docs): tessera median ${m.toFixed(2)} s, ${Math.round(count / m)} docs/s, ${median(cpus).toFixed(1)} CPU s`
if (theirs.length > 0) summary += `; fts5 median ${median(theirs).toFixed(2)} s, ${Math.round(count / median(theirs))} docs/s; ratio ${(median(theirs) / m).toFixed(2)}×`
console.log(summary)

/**
 * `npm run chaos -- soak --minutes M`: mixed reads and writes from 64 clients for M minutes (default 10), with a
 * line every 10 s of QPS, errors, p99 latency, RSS, open file descriptors and the data directory's size. After the
 * warm-up (the first fifth of the run) memory and descriptors must stay flat: the last sample may exceed the
 * warm-up's by at most half (RSS) and a fifth (descriptors). `--svg FILE` writes the RSS curve.
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { seededRandom } from '../test/helpers/random.js'
import { VOCABULARY } from './model.js'
import { drained, startChaosServer } from './server.js'

export interface SoakOptions { minutes: number; seed: number; svg: string | null }

const CLIENTS = 64
/** Writes replace and delete among these ids: the data stays the same size, so memory must stay flat. */
const DOCUMENTS = 5000
const SAMPLE_MS = 10_000

interface Sample { second: number; qps: number; errors: number; p99: number; rssMb: number; fds: number; diskMb: number; walMb: number; memory: Memory | null }

/** The server's own memory line (TESSERA_MEMORY_LOG_MS), MB: the V8 heap, external buffers, and the native rest. */
interface Memory { heapUsed: number; heapTotal: number; external: number; native: number }

function lastMemory(logs: string): Memory | null {
  const all = [...logs.matchAll(/memory rss=\d+ heapUsed=(\d+) heapTotal=(\d+) external=(\d+) arrayBuffers=\d+ native=(-?\d+)/g)]
  const m = all[all.length - 1]
  return m ? { heapUsed: Number(m[1]), heapTotal: Number(m[2]), external: Number(m[3]), native: Number(m[4]) } : null
}

function rssMb(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
  return m ? Math.round(Number(m[1]) / 1024) : 0
}

function diskMb(dir: string): number {
  let bytes = 0
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name)
      try { if (e.isDirectory()) walk(p); else bytes += statSync(p).size } catch { /* removed meanwhile */ }
    }
  }
  walk(dir)
  return Math.round(bytes / 2 ** 20)
}

/**
 * RocksDB's write-ahead log files (`db/*.log`), MB: they hold every write not yet flushed from a memtable, so their
 * size follows the bytes the memtables hold (the memtables take that plus their skiplist overhead in native memory).
 */
function walMb(dbPath: string): number {
  let bytes = 0
  for (const name of readdirSync(join(dbPath, 'db'))) {
    if (name.endsWith('.log')) try { bytes += statSync(join(dbPath, 'db', name)).size } catch { /* removed meanwhile */ }
  }
  return Math.round(bytes / 2 ** 20)
}

/** RocksDB's flushes over the run, per column family, from `db/LOG` (the server runs with TESSERA_ROCKSDB_LOG=info). */
function flushSummary(dbPath: string): string {
  let log = ''
  try { log = readFileSync(join(dbPath, 'db', 'LOG'), 'utf8') } catch { return 'no RocksDB LOG' }
  const byColumn = new Map<string, { flushes: number; maxMb: number }>()
  for (const m of log.matchAll(/\[([\w-]+)\] \[JOB \d+\] Flushing memtable[^\n]*\n[^\n]*"memory_usage": (\d+)[^\n]*"flush_reason": "([^"]+)"/g)) {
    const entry = byColumn.get(m[1]!) ?? { flushes: 0, maxMb: 0 }
    entry.flushes++
    entry.maxMb = Math.max(entry.maxMb, Math.round(Number(m[2]) / 2 ** 20))
    byColumn.set(m[1]!, entry)
  }
  if (byColumn.size === 0) return 'no memtable was flushed'
  return [...byColumn].map(([column, e]) => `${column}: ${e.flushes} flush(es), largest memtable ${e.maxMb} MB`).join('; ')
}

function svgOf(samples: Sample[]): string {
  const w = 640, h = 240, pad = 40
  const maxX = Math.max(1, ...samples.map((s) => s.second))
  const maxY = Math.max(1, ...samples.map((s) => s.rssMb)) * 1.1
  const line = (value: (s: Sample) => number | undefined) => samples.filter((s) => value(s) !== undefined)
    .map((s) => `${(pad + (s.second / maxX) * (w - 2 * pad)).toFixed(1)},${(h - pad - (value(s)! / maxY) * (h - 2 * pad)).toFixed(1)}`).join(' ')
  const pts = line((s) => s.rssMb)
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" font-family="sans-serif" font-size="11">
<rect width="${w}" height="${h}" fill="white"/>
<line x1="${pad}" y1="${h - pad}" x2="${w - pad}" y2="${h - pad}" stroke="#888"/><line x1="${pad}" y1="${pad}" x2="${pad}" y2="${h - pad}" stroke="#888"/>
<text x="${w / 2}" y="${h - 8}" text-anchor="middle">seconds (0 to ${maxX})</text>
<text x="8" y="${pad - 10}">MB (0 to ${Math.round(maxY)}): <tspan fill="#2563eb">RSS</tspan>, <tspan fill="#dc2626">native (RSS less V8 heap and external)</tspan>, <tspan fill="#16a34a">V8 heap used</tspan>, <tspan fill="#9333ea">RocksDB WAL</tspan></text>
<polyline fill="none" stroke="#2563eb" stroke-width="2" points="${pts}"/>
<polyline fill="none" stroke="#dc2626" stroke-width="1.5" points="${line((s) => s.memory?.native)}"/>
<polyline fill="none" stroke="#16a34a" stroke-width="1.5" points="${line((s) => s.memory?.heapUsed)}"/>
<polyline fill="none" stroke="#9333ea" stroke-width="1.5" points="${line((s) => s.walMb)}"/>
</svg>
`
}

export async function soak(options: SoakOptions): Promise<boolean> {
  const dbPath = mkdtempSync(join(tmpdir(), 'tessera-chaos-soak-'))
  // The server logs its memory split every sample period (as a WARN line, so the log level lets it through), and
  // RocksDB its flushes to db/LOG (which column family, how large its memtable had grown).
  const server = await startChaosServer(dbPath, [], { TESSERA_LOG_LEVEL: 'WARN', TESSERA_MEMORY_LOG_MS: String(SAMPLE_MS), TESSERA_ROCKSDB_LOG: 'info' })
  const pid = server.launched.proc.pid!
  const r = seededRandom(options.seed)
  const word = () => VOCABULARY[r.int(VOCABULARY.length)]!
  const doc = (id: number) => ({ id, title: `${word()} ${word()}`, body: Array.from({ length: 12 }, word).join(' '), n: id % 100 })
  const post = (path: string, body: unknown, method = 'POST') => fetch(server.url + path, { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
  const samples: Sample[] = []
  let ok = true
  try {
    await post('/indexes/soak/settings', { filterableAttributes: ['n'] }, 'PATCH')
    await post('/indexes/soak/documents?primaryKey=id', Array.from({ length: DOCUMENTS }, (_, i) => doc(i)))
    await drained(server.url)
    console.log(`soak: ${options.minutes} min, ${CLIENTS} clients, seed ${options.seed}, data in ${dbPath}`)
    const end = Date.now() + options.minutes * 60_000
    let latencies: number[] = []
    let errors = 0
    const client = async () => {
      while (Date.now() < end) {
        const roll = r.int(10)
        const started = performance.now()
        try {
          const res = roll < 8
            ? await post('/indexes/soak/search', r.int(3) === 0 ? { q: word(), filter: `n < ${r.int(100)}` } : { q: `${word()} ${word().slice(0, 3)}` })
            : roll === 8
              ? await post('/indexes/soak/documents', Array.from({ length: 1 + r.int(20) }, () => doc(r.int(DOCUMENTS))))
              : await post('/indexes/soak/documents/delete-batch', Array.from({ length: 1 + r.int(10) }, () => r.int(DOCUMENTS)))
          await res.arrayBuffer()
          if (res.status >= 400) errors++
        } catch {
          errors++
        }
        latencies.push(performance.now() - started)
      }
    }
    const started = Date.now()
    const sampler = (async () => {
      while (Date.now() < end) {
        await new Promise((resolve) => setTimeout(resolve, Math.min(SAMPLE_MS, Math.max(0, end - Date.now()))))
        const window = latencies.sort((a, b) => a - b)
        const sample: Sample = {
          second: Math.round((Date.now() - started) / 1000), qps: Math.round(window.length / (SAMPLE_MS / 1000)), errors,
          p99: Math.round(window[Math.floor(window.length * 0.99)] ?? 0), rssMb: rssMb(pid), fds: readdirSync(`/proc/${pid}/fd`).length, diskMb: diskMb(dbPath), walMb: walMb(dbPath),
          memory: lastMemory(server.launched.logs()),
        }
        const m = sample.memory
        samples.push(sample)
        console.log(`soak ${sample.second}s: ${sample.qps} req/s, ${sample.errors} errors, p99 ${sample.p99} ms, RSS ${sample.rssMb} MB${m ? ` (main thread: heap ${m.heapUsed}/${m.heapTotal}, external ${m.external}, native ${m.native})` : ''}, ${sample.fds} fds, data ${sample.diskMb} MB (WAL ${sample.walMb} MB)`)
        latencies = []
      }
    })()
    await Promise.all([...Array.from({ length: CLIENTS }, client), sampler])
    const warm = samples[Math.max(0, Math.floor(samples.length / 5) - 1)]
    const last = samples[samples.length - 1]
    if (warm && last) {
      if (last.rssMb > warm.rssMb * 1.5) { ok = false; console.log(`soak FAILED: RSS grew from ${warm.rssMb} MB after warm-up to ${last.rssMb} MB`) }
      if (last.fds > warm.fds * 1.2 + 5) { ok = false; console.log(`soak FAILED: descriptors grew from ${warm.fds} after warm-up to ${last.fds}`) }
    }
    if (errors > 0) { ok = false; console.log(`soak FAILED: ${errors} errors`) }
    console.log(`soak: RocksDB memtable flushes: ${flushSummary(dbPath)}`)
    if (options.svg) writeFileSync(options.svg, svgOf(samples))
  } finally {
    await server.kill9()
    rmSync(dbPath, { recursive: true, force: true })
  }
  if (ok) console.log('soak passed')
  return ok
}

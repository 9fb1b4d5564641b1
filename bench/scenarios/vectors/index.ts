/**
 * `npm run bench -- --only vectors`: vector search on generated clustered 384-dimension vectors (100 clusters of
 * different spreads, calibrated so that `hnswlib-node` at ef 10 reaches a recall@10 near 0.75), 1,000 queries
 * plain and filtered (one cluster in ten). In process: exact truth,
 * `hnswlib-node` and `usearch` raw, Tessera's store (float HNSW; binary quantized at two rescoring depths). Over
 * HTTP: build rate, search p50 against the `/health` floor, recall, QPS, hybrid and keyword latency, bytes per
 * vector. Writes `vectors.json` and `vectors.md`. Nothing here is asserted: the targets are stated next to the
 * figures.
 */
import { writeFileSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { clusteredVectors } from '../../data/clustered-vectors.js'
import type { Outcome, RunContext } from '../../harness/scenario.js'
import { httpFigures, type HttpFigures } from './http.js'
import { inProcessFigures, type EngineFigures } from './in-process.js'
import { oramaFigures } from './orama.js'
import { lancedbFigures } from './lancedb.js'
import type { VectorsOptions } from './options.js'

export { DEFAULT_VECTORS_OPTIONS, quickVectorsOptions, type VectorsOptions } from './options.js'

const DIMS = 384
const CLUSTERS = 100

export async function runVectorsScenario(options: VectorsOptions, ctx: RunContext): Promise<Outcome> {
  const log = (s: string) => process.stderr.write(s + '\n')
  try {
    log(`vectors: generating ${options.count} × ${DIMS} vectors in ${CLUSTERS} clusters, ${options.queries} queries`)
    const data = clusteredVectors({ count: options.count, dims: DIMS, clusters: CLUSTERS, queries: options.queries, seed: 19, minSpread: 0.02, maxSpread: 0.18 })
    const local = await inProcessFigures(data, log, ctx.dataParent)
    try {
      local.engines.push(await oramaFigures(data, local.truth, local.filteredTruth, log))
    } catch (err) {
      log(`vectors: Orama failed (${(err as Error).message})`)
    }
    try {
      local.engines.push(await lancedbFigures(data, local.truth, local.filteredTruth, ctx.dataParent, log))
    } catch (err) {
      log(`vectors: LanceDB failed (${(err as Error).message})`)
    }
    const http = await httpFigures(data, local.truth, local.filteredTruth, { clients: options.clients, seconds: options.seconds, dataParent: ctx.dataParent }, log)
    const report = { benchmark: 'vectors', date: ctx.date, machine: ctx.machine, options, dims: DIMS, clusters: CLUSTERS, hnswlibRecallAtEf10: local.hardness, engines: local.engines, rescoring: local.rescoring, http }
    mkdirSync(ctx.outDir, { recursive: true })
    const json = join(ctx.outDir, 'vectors.json')
    const md = join(ctx.outDir, 'vectors.md')
    const markdown = vectorsMarkdown(report.date, options, local.hardness, local.engines, local.rescoring, http)
    writeFileSync(json, JSON.stringify(report, null, 2) + '\n')
    writeFileSync(md, markdown)
    return { markdown, json, md, failures: [], failureLabel: 'VECTORS SCENARIO FAILED' }
  } catch (err) {
    return { markdown: `# Vectors\n\nFAILED: ${(err as Error).message}\n`, json: '', md: '', failures: [(err as Error).message], failureLabel: 'VECTORS SCENARIO FAILED' }
  }
}

const f = (n: number | null, d = 2) => (n === null ? '–' : n.toFixed(d))
const int = (n: number) => Math.round(n).toLocaleString('en-US')

function vectorsMarkdown(date: string, o: VectorsOptions, hardness: number, engines: EngineFigures[], rescoring: EngineFigures[], h: HttpFigures): string {
  const hnsw = engines.find((e) => e.name.startsWith('hnswlib'))
  const floor = h.healthP50Ms + 2 * (hnsw?.p50Ms ?? 0)
  return [
    '# Vectors', '',
    `${date} · ${int(o.count)} generated ${DIMS}-dimension vectors in ${CLUSTERS} clusters of different spreads · ${o.queries} queries, plain and filtered (one cluster in ten) · k = 10`, '',
    `Hardness: \`hnswlib-node\` at ef = 10 reaches recall@10 ${f(hardness, 3)}.`, '',
    '## In process', '',
    '| engine | build (vectors/s) | indexing thread busy (ms) | recall@10 | filtered recall@10 | search p50 (ms) | bytes per vector |',
    '|---|---:|---:|---:|---:|---:|---:|',
    ...engines.map((e) => `| ${e.name} | ${e.buildVectorsPerSecond === null ? '–' : int(e.buildVectorsPerSecond)} | ${e.mainThreadBusyMs === undefined ? '–' : int(e.mainThreadBusyMs)} | ${f(e.recall, 3)} | ${f(e.filteredRecall, 3)} | ${f(e.p50Ms, 3)} | ${e.bytesPerVector === undefined ? '–' : int(e.bytesPerVector)} |`),
    '',
    'Bytes per vector: what the engine keeps on disk per vector (hnswlib\'s saved graph; LanceDB\'s table directory,',
    'its vectors, index and the two other columns); Tessera\'s whole database is in the HTTP table below.',
    '',
    'Indexing thread busy: event loop utilization while the space was built (the rest of the time it was free to',
    'answer requests); a graph built in the pool leaves the thread the copies of the graph (written and read by',
    'hnswlib off the thread) and the bookkeeping.',
    '',
    '## Binary quantization: what rescores the Hamming candidates', '',
    '| rescoring | recall@10 | search p50 (ms) |',
    '|---|---:|---:|',
    ...rescoring.map((e) => `| ${e.name} | ${f(e.recall, 3)} | ${f(e.p50Ms, 3)} |`),
    '',
    'The int8 copy costs 1 byte per dimension in memory and on disk; floats read from RocksDB cost 4 bytes per',
    'dimension on disk and none in memory (the sign bits, 1/8 byte per dimension, are in memory either way).',
    '',
    '## Over HTTP (Tessera)', '',
    '| figure | value | target |',
    '|---|---:|---|',
    `| index build | ${int(h.buildVectorsPerSecond)} vectors/s | ≥ hnswlib-node single-threaded (${hnsw?.buildVectorsPerSecond ? int(hnsw.buildVectorsPerSecond) : '–'}) |`,
    `| \`/health\` p50 (HTTP floor) | ${f(h.healthP50Ms, 3)} ms | |`,
    `| semantic search p50 | ${f(h.searchP50Ms, 3)} ms | ≤ floor + 2 × hnswlib p50 = ${f(floor, 3)} ms |`,
    `| filtered semantic search p50 | ${f(h.filteredSearchP50Ms, 3)} ms | |`,
    `| hybrid search p50 (ratio 0.5) | ${f(h.hybridP50Ms, 3)} ms | next to keyword |`,
    `| keyword search p50 | ${f(h.keywordP50Ms, 3)} ms | |`,
    `| recall@10 | ${f(h.recall, 3)} | ≥ 0.95 |`,
    `| filtered recall@10 | ${f(h.filteredRecall, 3)} | ≥ 0.95 |`,
    `| QPS at ${h.clients} clients | ${int(h.qps)} | |`,
    `| binary quantized recall@10 (default rescoring) | ${f(h.quantizedRecall, 3)} | ≥ 0.90 |`,
    `| database bytes per vector, float | ${int(h.bytesPerVectorFloat)} | |`,
    `| database bytes per vector, after quantization | ${int(h.bytesPerVectorQuantized)} | |`,
    '',
    'Bytes per vector are the whole database (documents included) divided by the vectors; documents are stored',
    'without the vectors of configured embedders (the vector store holds them once).',
    'Quantized rows hold the sign bits plus an int8 rescoring copy (1 + 1/8 bytes per dimension, against 4).',
    '',
  ].join('\n')
}

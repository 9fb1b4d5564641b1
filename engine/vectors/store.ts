/**
 * The vector store: per index and embedder, every document's vectors in RocksDB (the source of truth, written in
 * the batch's atomic commit) and, in memory, the published `VectorSpace`s with their HNSW graphs. Graphs are saved
 * beside the database (`<data>/vectors/<index id>-<embedder hex>.hnsw`) after the batches that change them and
 * loaded at start; whatever a crash left stale is repaired from RocksDB on load: slots the database no longer has are
 * dropped from the graph, and the ones it lacks are added (a slot is never given to two vectors).
 */
import { randomUUID } from 'node:crypto'
import { existsSync, mkdirSync, renameSync, rmSync, readdirSync, writeFileSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { tmpdir } from 'node:os'
import { keys, decode, type Store } from '../storage/index.js'
import { decodeEntry, parseKey, type SpaceRecord, type VectorEntry } from './codec.js'
import { AnnGraph } from './graph.js'
import { VectorSpace, type IndexVectors } from './space.js'
import { VectorDraft } from './draft.js'
import { GRAPH_SCRATCH_PREFIX } from './graph-build.js'

/** Graphs are saved at most this often while batches keep coming (a crash in between costs a repair). */
const SAVE_INTERVAL_MS = 2000

export class VectorStore {
  private readonly loaded = new Map<number, IndexVectors>()
  private readonly loading = new Map<number, Promise<IndexVectors>>()
  /** Slots handed to batches that were not committed: never handed out again in this process. */
  private readonly slotFloor = new Map<string, number>()
  private readonly dirty = new Set<string>()
  private lastSave = 0

  /** `dir`: where graphs are saved (null: never saved, rebuilt from the database at each start). */
  constructor(private readonly store: Store, private readonly dir: string | null) {
    if (!dir) return
    mkdirSync(dir, { recursive: true })
    // Graph builds a crash interrupted.
    for (const f of readdirSync(dir)) if (f.startsWith(GRAPH_SCRATCH_PREFIX)) rmSync(join(dir, f), { recursive: true, force: true })
  }

  /** The published vectors of an index (read from the database the first time). */
  get(indexId: number): Promise<IndexVectors> {
    const hit = this.loaded.get(indexId)
    if (hit) return Promise.resolve(hit)
    let pending = this.loading.get(indexId)
    if (!pending) {
      pending = this.load(indexId).then((v) => { this.loading.delete(indexId); if (!this.loaded.has(indexId)) this.loaded.set(indexId, v); return this.loaded.get(indexId)! })
      this.loading.set(indexId, pending)
    }
    return pending
  }

  /** Where batches build their graph files (beside the saved graphs; the OS temporary directory without them). */
  scratchDir(): string {
    return this.dir ?? tmpdir()
  }

  /** The published vectors when already loaded. */
  peek(indexId: number): IndexVectors | undefined {
    return this.loaded.get(indexId)
  }

  async draft(indexId: number): Promise<VectorDraft> {
    return new VectorDraft(indexId, await this.get(indexId), (name, next) => Math.max(next, this.slotFloor.get(`${indexId}/${name}`) ?? 0))
  }

  /** Make a committed draft visible (synchronously). */
  publish(draft: VectorDraft): void {
    const next = draft.result()
    const built = draft.takeGraphFiles()
    try {
      if (next === null) return
      this.loaded.set(draft.indexId, next.spaces)
      for (const name of next.changed) {
        const space = next.spaces.get(name)
        const file = built.get(name)?.file
        // A space turned quantized has no graph any more: its file goes.
        if (space?.quantized) this.removeFile(draft.indexId, name)
        else if (file && this.dir && space) this.keepBuilt(draft.indexId, space, file)
        else {
          // Built in a scratch directory that goes below: no file holds the graph any more.
          if (file && space?.graph) space.graph.source = null
          this.dirty.add(`${draft.indexId}/${name}`)
        }
      }
      for (const name of next.dropped) this.removeFile(draft.indexId, name)
    } finally {
      for (const { dir } of built.values()) rmSync(dir, { recursive: true, force: true })
    }
  }

  /** A graph built in the pool is saved already: its file (the graph as published) becomes the saved one. */
  private keepBuilt(indexId: number, space: VectorSpace, built: string): void {
    const file = this.file(indexId, space.name)
    renameSync(built, file)
    writeFileSync(file + '.generation', String(space.record.generation))
    if (space.graph?.source) space.graph.source = { ...space.graph.source, file }
    this.dirty.delete(`${indexId}/${space.name}`)
  }

  /** A draft that will not be committed: its slots are never reused. */
  abandoned(draft: VectorDraft): void {
    for (const [name, next] of draft.abandon()) {
      const key = `${draft.indexId}/${name}`
      this.slotFloor.set(key, Math.max(next, this.slotFloor.get(key) ?? 0))
    }
  }

  /** Forget an index whose data is gone, and its graph files. */
  forget(indexId: number): void {
    this.loaded.delete(indexId)
    if (!this.dir) return
    for (const f of readdirSync(this.dir)) if (f.startsWith(`${indexId}-`)) rmSync(join(this.dir, f), { force: true })
  }

  /** Save the graphs changed since the last save (`force`: now, else at most every SAVE_INTERVAL_MS). */
  save(force = false): void {
    if (!this.dir || this.dirty.size === 0) return
    if (!force && Date.now() - this.lastSave < SAVE_INTERVAL_MS) return
    for (const key of this.dirty) {
      const [id, ...rest] = key.split('/')
      const space = this.loaded.get(Number(id))?.get(rest.join('/'))
      if (!space?.graph) continue
      const file = this.file(Number(id), space.name)
      space.graph.save(file + '.tmp')
      renameSync(file + '.tmp', file)
      writeFileSync(file + '.generation', String(space.record.generation))
      space.graph.source = { file, id: randomUUID() }
    }
    this.dirty.clear()
    this.lastSave = Date.now()
  }

  private file(indexId: number, name: string): string {
    return join(this.dir!, `${indexId}-${Buffer.from(name, 'utf8').toString('hex')}.hnsw`)
  }

  private removeFile(indexId: number, name: string): void {
    this.dirty.delete(`${indexId}/${name}`)
    if (!this.dir) return
    for (const suffix of ['', '.generation']) rmSync(this.file(indexId, name) + suffix, { force: true })
  }

  private async load(indexId: number): Promise<IndexVectors> {
    const records = new Map<string, SpaceRecord>()
    const entries = new Map<string, Map<number, VectorEntry>>()
    for await (const [key, value] of this.store.scan('vectors', keys.indexRange(indexId))) {
      const parsed = parseKey(key)
      if (!parsed) continue
      if (parsed.kind === 'space') records.set(parsed.embedder, decode<SpaceRecord>(value))
      else {
        let m = entries.get(parsed.embedder)
        if (!m) entries.set(parsed.embedder, (m = new Map()))
        m.set(parsed.docid, decodeEntry(value))
      }
    }
    const spaces = new Map<string, VectorSpace>()
    for (const [name, record] of records) {
      const rows = entries.get(name) ?? new Map<number, VectorEntry>()
      const slotDoc = new Map<number, number>()
      for (const [docid, e] of rows) for (const s of e.slots) slotDoc.set(s, docid)
      const graph = record.quantized ? null : this.loadGraph(indexId, name, record, rows, slotDoc)
      spaces.set(name, new VectorSpace(name, record, rows, slotDoc, graph))
    }
    return spaces
  }

  /** The saved graph, repaired against the database; a new one when none was saved (or it cannot be read). */
  private loadGraph(indexId: number, name: string, record: SpaceRecord, rows: Map<number, VectorEntry>, slotDoc: Map<number, number>): AnnGraph {
    let graph: AnnGraph | null = null
    const file = this.dir ? this.file(indexId, name) : null
    if (file && existsSync(file)) {
      try {
        graph = AnnGraph.load(file, record.dims)
        // The next large batch extends this file (repairs that insert clear it; dropped slots do not matter).
        graph.source = { file, id: randomUUID() }
      } catch {
        graph = null
      }
    }
    const stale = !file || !existsSync(file + '.generation') || readFileSync(file + '.generation', 'utf8') !== String(record.generation)
    graph ??= AnnGraph.create(record.dims, Math.max(1024, slotDoc.size * 2))
    if (stale || graph.size !== slotDoc.size) {
      for (const slot of [...graph.slots()]) if (!slotDoc.has(slot)) graph.remove(slot)
      for (const e of rows.values()) e.slots.forEach((slot, k) => { if (!graph!.has(slot)) graph!.add(slot, e.vectors[k]!) })
      this.dirty.add(`${indexId}/${name}`)
    }
    return graph
  }
}

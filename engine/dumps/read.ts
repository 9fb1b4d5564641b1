/**
 * Reading a v6 dump: unpack the gzipped tar, check its version, and parse every record but the documents (which the
 * import streams into the engine's own validation). Anything unreadable is a `UnreadableImport` naming the file and why.
 */
import { createReadStream, existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { createInterface } from 'node:readline'
import { mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import * as tar from 'tar'
import type { Batch, Task } from '../tasks/types.js'
import { unreadableDump } from './errors.js'
import { taskFromDump, type TaskDump } from './tasks.js'
import { batchFromDump, indexMetadataFromDump, keyFromDump, type IndexDump, type StoredKey } from './records.js'

export interface DumpIndex {
  meta: IndexDump
  /** settings.json as written (Meilisearch's settings object), validated by the import. */
  settings: unknown
  /** documents.jsonl */
  documentsPath: string
}

/** A task of the dump with its line (Meilisearch's settings of a waiting task are validated from it) and update file. */
export interface DumpTask {
  task: Task
  line: TaskDump
  updateFile: string | null
}

export interface DumpContents {
  dumpDate: string
  keys: StoredKey[]
  /** The task queue, read line by line when imported (a queue holds up to a million tasks). */
  tasks(): AsyncGenerator<DumpTask>
  batches: Batch[]
  features: Record<string, unknown> | null
  /** `network.json` (Meilisearch writes it since v1.13; older dumps have none). */
  network: Record<string, unknown> | null
  indexes: DumpIndex[]
}

const INDEX_UID = /^[a-zA-Z0-9_-]{1,400}$/

/** Unpack `file` into `dir` (a new, empty directory). */
export async function unpackDump(file: string, dir: string): Promise<void> {
  await mkdir(dir, { recursive: true })
  try {
    tar.x({ file, cwd: dir, strict: true, preservePaths: false, sync: true })
  } catch (err) {
    throw unreadableDump(`the file is not a readable gzipped tar (${(err as Error).message})`)
  }
}

function readJson(dir: string, path: string, required = true): unknown {
  const full = join(dir, path)
  if (!existsSync(full)) {
    if (required) throw unreadableDump(`\`${path}\` is missing`)
    return undefined
  }
  try {
    return JSON.parse(readFileSync(full, 'utf8'))
  } catch (err) {
    throw unreadableDump(`\`${path}\` is not valid JSON (${(err as Error).message})`)
  }
}

function readLines(dir: string, path: string, required = true): unknown[] {
  const full = join(dir, path)
  if (!existsSync(full)) {
    if (required) throw unreadableDump(`\`${path}\` is missing`)
    return []
  }
  const out: unknown[] = []
  const lines = readFileSync(full, 'utf8').split('\n')
  for (let i = 0; i < lines.length; i++) {
    if (lines[i]!.trim() === '') continue
    try {
      out.push(JSON.parse(lines[i]!))
    } catch (err) {
      throw unreadableDump(`\`${path}\` line ${i + 1} is not valid JSON (${(err as Error).message})`)
    }
  }
  return out
}

/** Parse an unpacked dump. */
export function readDump(dir: string): DumpContents {
  const metadata = readJson(dir, 'metadata.json') as Record<string, unknown> | null
  const version = metadata && typeof metadata === 'object' ? metadata.dumpVersion : undefined
  if (version !== 'V6') throw unreadableDump(`dump version ${JSON.stringify(version ?? null)} is not supported: Tessera imports version V6 dumps (made by Meilisearch v1.x or Tessera)`)
  const keys = readLines(dir, 'keys.jsonl').map(keyFromDump)
  if (!existsSync(join(dir, 'tasks', 'queue.jsonl'))) throw unreadableDump('`tasks/queue.jsonl` is missing')
  const batches = readLines(dir, 'batches/queue.jsonl', false).map(batchFromDump)
  const features = (readJson(dir, 'experimental-features.json', false) ?? null) as Record<string, unknown> | null
  const network = readJson(dir, 'network.json', false) ?? null
  if (network !== null && (typeof network !== 'object' || Array.isArray(network))) throw unreadableDump('`network.json` is not a JSON object')
  const indexes: DumpIndex[] = []
  const indexesDir = join(dir, 'indexes')
  if (existsSync(indexesDir)) {
    for (const name of readdirSync(indexesDir).sort()) {
      if (!statSync(join(indexesDir, name)).isDirectory()) continue
      const meta = indexMetadataFromDump(readJson(dir, `indexes/${name}/metadata.json`), name)
      if (!INDEX_UID.test(meta.uid)) throw unreadableDump(`\`indexes/${name}/metadata.json\` names an invalid index uid: ${JSON.stringify(meta.uid)}`)
      const settings = readJson(dir, `indexes/${name}/settings.json`)
      const documentsPath = join(indexesDir, name, 'documents.jsonl')
      if (!existsSync(documentsPath)) throw unreadableDump(`\`indexes/${name}/documents.jsonl\` is missing`)
      indexes.push({ meta, settings, documentsPath })
    }
  }
  return { dumpDate: String(metadata!.dumpDate ?? ''), keys, tasks: () => readTasks(dir), batches, features, network: network as Record<string, unknown> | null, indexes }
}

async function* readTasks(dir: string): AsyncGenerator<DumpTask> {
  const path = 'tasks/queue.jsonl'
  const lines = createInterface({ input: createReadStream(join(dir, path)), crlfDelay: Infinity })
  const seen = new Set<number>()
  let n = 0
  for await (const text of lines) {
    n++
    if (text.trim() === '') continue
    let line: TaskDump
    try {
      line = JSON.parse(text) as TaskDump
    } catch (err) {
      throw unreadableDump(`\`${path}\` line ${n} is not valid JSON (${(err as Error).message})`)
    }
    const task = taskFromDump(line)
    if (seen.has(task.uid)) throw unreadableDump(`task ${task.uid} appears twice in \`${path}\``)
    seen.add(task.uid)
    const updateFile = join(dir, 'tasks', 'update_files', `${task.uid}.jsonl`)
    yield { task, line, updateFile: existsSync(updateFile) ? updateFile : null }
  }
}

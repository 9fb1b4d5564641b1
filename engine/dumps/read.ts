/**
 * Reading a v6 dump: unpack the gzipped tar, check its version, and parse every record but the documents (which the
 * import streams into the engine's own validation). Anything unreadable is a `BadDump` naming the file and why.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import * as tar from 'tar'
import type { Batch, Task } from '../tasks/types.js'
import { badDump } from './errors.js'
import { taskFromDump, type TaskDump } from './tasks.js'
import { batchFromDump, indexMetadataFromDump, keyFromDump, type IndexDump, type StoredKey } from './records.js'

export interface DumpIndex {
  meta: IndexDump
  /** settings.json as written (Meilisearch's settings object), validated by the import. */
  settings: unknown
  /** documents.jsonl */
  documentsPath: string
}

export interface DumpContents {
  dumpDate: string
  keys: StoredKey[]
  /** Each task with its line (Meilisearch's settings of a waiting task are validated from it) and update file. */
  tasks: { task: Task; line: TaskDump; updateFile: string | null }[]
  batches: Batch[]
  features: Record<string, unknown> | null
  indexes: DumpIndex[]
}

const INDEX_UID = /^[a-zA-Z0-9_-]{1,400}$/

/** Unpack `file` into `dir` (a new, empty directory). */
export async function unpackDump(file: string, dir: string): Promise<void> {
  await mkdir(dir, { recursive: true })
  try {
    tar.x({ file, cwd: dir, strict: true, preservePaths: false, sync: true })
  } catch (err) {
    throw badDump(`the file is not a readable gzipped tar (${(err as Error).message})`)
  }
}

function readJson(dir: string, path: string, required = true): unknown {
  const full = join(dir, path)
  if (!existsSync(full)) {
    if (required) throw badDump(`\`${path}\` is missing`)
    return undefined
  }
  try {
    return JSON.parse(readFileSync(full, 'utf8'))
  } catch (err) {
    throw badDump(`\`${path}\` is not valid JSON (${(err as Error).message})`)
  }
}

function readLines(dir: string, path: string, required = true): unknown[] {
  const full = join(dir, path)
  if (!existsSync(full)) {
    if (required) throw badDump(`\`${path}\` is missing`)
    return []
  }
  const out: unknown[] = []
  const lines = readFileSync(full, 'utf8').split('\n')
  for (let i = 0; i < lines.length; i++) {
    if (lines[i]!.trim() === '') continue
    try {
      out.push(JSON.parse(lines[i]!))
    } catch (err) {
      throw badDump(`\`${path}\` line ${i + 1} is not valid JSON (${(err as Error).message})`)
    }
  }
  return out
}

/** Parse an unpacked dump. */
export function readDump(dir: string): DumpContents {
  const metadata = readJson(dir, 'metadata.json') as Record<string, unknown> | null
  const version = metadata && typeof metadata === 'object' ? metadata.dumpVersion : undefined
  if (version !== 'V6') throw badDump(`dump version ${JSON.stringify(version ?? null)} is not supported: Tessera imports version V6 dumps (made by Meilisearch v1.x or Tessera)`)
  const keys = readLines(dir, 'keys.jsonl').map(keyFromDump)
  const tasks = readLines(dir, 'tasks/queue.jsonl').map((line) => {
    const task = taskFromDump(line)
    const updateFile = join(dir, 'tasks', 'update_files', `${task.uid}.jsonl`)
    return { task, line: line as TaskDump, updateFile: existsSync(updateFile) ? updateFile : null }
  })
  const seen = new Set<number>()
  for (const { task } of tasks) {
    if (seen.has(task.uid)) throw badDump(`task ${task.uid} appears twice in \`tasks/queue.jsonl\``)
    seen.add(task.uid)
  }
  const batches = readLines(dir, 'batches/queue.jsonl', false).map(batchFromDump)
  const features = (readJson(dir, 'experimental-features.json', false) ?? null) as Record<string, unknown> | null
  const indexes: DumpIndex[] = []
  const indexesDir = join(dir, 'indexes')
  if (existsSync(indexesDir)) {
    for (const name of readdirSync(indexesDir).sort()) {
      if (!statSync(join(indexesDir, name)).isDirectory()) continue
      const meta = indexMetadataFromDump(readJson(dir, `indexes/${name}/metadata.json`), name)
      if (!INDEX_UID.test(meta.uid)) throw badDump(`\`indexes/${name}/metadata.json\` names an invalid index uid: ${JSON.stringify(meta.uid)}`)
      const settings = readJson(dir, `indexes/${name}/settings.json`)
      const documentsPath = join(indexesDir, name, 'documents.jsonl')
      if (!existsSync(documentsPath)) throw badDump(`\`indexes/${name}/documents.jsonl\` is missing`)
      indexes.push({ meta, settings, documentsPath })
    }
  }
  return { dumpDate: String(metadata!.dumpDate ?? ''), keys, tasks, batches, features, indexes }
}

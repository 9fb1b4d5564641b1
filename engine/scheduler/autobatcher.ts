/**
 * Autobatching: which enqueued tasks of one index run together. Pure: it sees each task's batching class and
 * decides the longest compatible prefix of the index's queue, and why it stopped (the batch's `batchStrategy`).
 */

/** How a task behaves when batched. Operations map to one of these (see `batchClassOf` in the scheduler). */
export type BatchClass =
  | { kind: 'alone' }
  | { kind: 'indexDeletion' }
  | { kind: 'documentAddition'; primaryKey: string | null; allowIndexCreation: boolean }
  | { kind: 'documentDeletionByIds' }
  | { kind: 'documentDeletionByFilter' }
  | { kind: 'documentClear' }
  | { kind: 'settings'; allowIndexCreation: boolean }

export interface Candidate {
  uid: number
  type: string
  class: BatchClass
}

export interface Autobatch {
  uids: number[]
  strategy: string
}

type State = 'documents' | 'clear' | 'settings' | 'clearAndSettings' | 'indexDeletion'

const creates = (c: BatchClass): boolean | null =>
  c.kind === 'documentAddition' || c.kind === 'settings' ? c.allowIndexCreation : null

/**
 * @param queue the index's enqueued tasks, oldest first (non-empty)
 * @param indexExists whether the index exists before the batch runs
 */
export function autobatch(queue: Candidate[], indexUid: string, indexExists: boolean): Autobatch {
  const first = queue[0]!
  const uids = [first.uid]
  if (first.class.kind === 'alone') {
    return { uids, strategy: `created batch containing only task with id ${first.uid} of type \`${first.type}\` that cannot be batched with any other task.` }
  }
  if (first.class.kind === 'indexDeletion') {
    return { uids, strategy: `stopped after task with id ${first.uid} because it deletes the index` }
  }
  let state: State = first.class.kind === 'settings' ? 'settings' : first.class.kind === 'documentClear' ? 'clear' : 'documents'
  let hasAddition = first.class.kind === 'documentAddition'
  let primaryKey = first.class.kind === 'documentAddition' ? first.class.primaryKey : null
  const creation = creates(first.class)

  for (const task of queue.slice(1)) {
    const c = task.class
    const stop = (why: string): Autobatch => ({ uids, strategy: `stopped before task with id ${task.uid} because ${why}` })
    // Meilisearch reports this stop with its TaskCannotBeBatched text, naming the task that stopped the batch.
    if (c.kind === 'alone') return { uids, strategy: `created batch containing only task with id ${task.uid} of type \`${task.type}\` that cannot be batched with any other task.` }
    if (c.kind === 'indexDeletion') {
      uids.push(task.uid)
      return { uids, strategy: `stopped after task with id ${task.uid} because it deletes the index` }
    }
    // On an index that does not exist yet, tasks that may create it and tasks that may not never mix.
    const taskCreates = creates(c)
    if (!indexExists && creation !== null && taskCreates !== null && taskCreates !== creation) {
      return { uids, strategy: `stopped batching before task with id ${task.uid} because its index creation rules differ from the ones from the batch` }
    }
    if (c.kind === 'settings') {
      if (state === 'settings' || state === 'clearAndSettings') { uids.push(task.uid); continue }
      if (state === 'clear') { state = 'clearAndSettings'; uids.push(task.uid); continue }
      return stop(`it is a settings change which cannot be batched with document operations`)
    }
    if (state === 'settings' || state === 'clearAndSettings') {
      if (c.kind === 'documentClear') { state = 'clearAndSettings'; uids.push(task.uid); continue }
      return stop(`it is a document operation which cannot be batched with settings changes`)
    }
    if (state === 'clear') {
      if (c.kind === 'documentAddition') return stop(`it is a document addition which cannot be batched with a document clear`)
      uids.push(task.uid) // a clear absorbs every later deletion
      continue
    }
    // state === 'documents'
    switch (c.kind) {
      case 'documentClear':
        state = 'clear'
        uids.push(task.uid)
        continue
      case 'documentDeletionByFilter':
        if (hasAddition) return stop(`it is a deletion by filter which cannot be batched with document operations`)
        uids.push(task.uid)
        continue
      case 'documentDeletionByIds':
        uids.push(task.uid)
        continue
      case 'documentAddition':
        if (!hasAddition && uids.length > 0 && !indexExists && c.allowIndexCreation) {
          return { uids, strategy: `stopped batching before task with id ${task.uid} because its index creation rules differ from the ones from the batch` }
        }
        if (primaryKey !== null && c.primaryKey !== null && c.primaryKey !== primaryKey) {
          return { uids, strategy: `stopped batching before task with id ${task.uid} because its primary key \`${c.primaryKey}\` is different from the primary key of the batch \`${primaryKey}\`` }
        }
        primaryKey ??= c.primaryKey
        hasAddition = true
        uids.push(task.uid)
        continue
    }
  }
  return { uids, strategy: `batched all enqueued tasks for index \`${indexUid}\`` }
}

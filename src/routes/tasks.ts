/** `/tasks` and `/batches`. */
import { TesseraError } from '../../engine/errors/index.js'
import { json } from '../http/json.js'
import { parseListQuery, parseMutationQuery } from './task-params.js'
import { decodePathSegment } from '../validation/index-uid.js'
import type { AppRouter } from './context.js'

function uidParam(raw: string, kind: 'Task' | 'Batch'): number {
  if (!/^\d+$/.test(raw) || Number(raw) > 0xffffffff) {
    throw new TesseraError(kind === 'Task' ? 'invalid_task_uids' : 'invalid_batch_uids', `${kind} uid \`${decodePathSegment(raw)}\` is invalid. It should only contain numeric characters.`)
  }
  return Number(raw)
}

export function taskRoutes(router: AppRouter): void {
  router
    .on('GET', '/tasks', ({ engine, req }) => {
      const { filter, page } = parseListQuery(req.rawQuery)
      return json(200, engine.listTasks(filter, page))
    })
    .on('GET', '/tasks/:uid', ({ engine, params }) => {
      const uid = uidParam(params.uid!, 'Task')
      const task = engine.getTask(uid)
      if (!task) throw new TesseraError('task_not_found', `Task \`${uid}\` not found.`)
      return json(200, task)
    })
    .on('POST', '/tasks/cancel', async ({ engine, req }) => {
      const filter = parseMutationQuery(req.rawQuery, 'cancel')
      // Meilisearch answers these two with 200, not 202.
      return json(200, await engine.cancelTasks(filter, `?${req.rawQuery}`))
    })
    .on('DELETE', '/tasks', async ({ engine, req }) => {
      const filter = parseMutationQuery(req.rawQuery, 'delete')
      return json(200, await engine.deleteTasks(filter, `?${req.rawQuery}`))
    })
    .on('GET', '/batches', ({ engine, req }) => {
      const { filter, page } = parseListQuery(req.rawQuery)
      return json(200, engine.listBatches(filter, page))
    })
    .on('GET', '/batches/:uid', ({ engine, params }) => {
      const uid = uidParam(params.uid!, 'Batch')
      const batch = engine.getBatch(uid)
      if (!batch) throw new TesseraError('batch_not_found', `Batch \`${uid}\` not found.`)
      return json(200, batch)
    })
}

/** `/tasks` and `/batches`. */
import { cancelTasks, deleteTasks, getBatch, getTask, listBatches, listTasks } from '../../engine/index.js'
import { json } from '../http/json.js'
import { key, route } from '../http/router.js'
import { parseBatchUid, parseListQuery, parseMutationQuery, parseTaskUid } from '../api/tasks.js'
import type { AppContext, AppRoute } from './context.js'

export const taskRoutes: AppRoute[] = [
  route<AppContext>('GET', '/tasks', key('tasks.get'), async ({ engine, req }) => {
    const { filter, page } = parseListQuery(req.rawQuery)
    return json(200, await listTasks(engine, filter, page))
  }),
  route<AppContext>('GET', '/tasks/:uid', key('tasks.get'), ({ engine, params }) => json(200, getTask(engine, parseTaskUid(params.uid!)))),
  // Meilisearch answers these two with 200, not 202.
  route<AppContext>('POST', '/tasks/cancel', key('tasks.cancel'), async ({ engine, req }) => json(200, await cancelTasks(engine, parseMutationQuery(req.rawQuery, 'cancel'), `?${req.rawQuery}`))),
  route<AppContext>('DELETE', '/tasks', key('tasks.delete'), async ({ engine, req }) => json(200, await deleteTasks(engine, parseMutationQuery(req.rawQuery, 'delete'), `?${req.rawQuery}`))),
  route<AppContext>('GET', '/batches', key('tasks.get'), async ({ engine, req }) => {
    const { filter, page } = parseListQuery(req.rawQuery)
    return json(200, await listBatches(engine, filter, page))
  }),
  route<AppContext>('GET', '/batches/:uid', key('tasks.get'), async ({ engine, params }) => json(200, await getBatch(engine, parseBatchUid(params.uid!)))),
]

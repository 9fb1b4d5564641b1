/** `/tasks` and `/batches`. An index-restricted key sees, cancels and deletes only the tasks of its indexes. */
import { cancelTasks, deleteTasks, getBatch, getTask, listBatches, listTasks } from '../../engine/index.js'
import { json } from '../http/json.js'
import { key, route } from '../http/router.js'
import { parseBatchUid, parseListQuery, parseMutationQuery, parseTaskUid } from '../api/tasks.js'
import type { AppContext, AppRoute } from './context.js'

export const taskRoutes: AppRoute[] = [
  route<AppContext>('GET', '/tasks', key('tasks.get'), async ({ engine, req, auth }) => {
    const { filter, page } = parseListQuery(req.rawQuery)
    return json(200, await listTasks(engine, { ...filter, indexScope: auth.indexScope }, page))
  }),
  route<AppContext>('GET', '/tasks/:uid', key('tasks.get'), ({ engine, params, auth }) => json(200, getTask(engine, parseTaskUid(params.uid!), auth.indexScope))),
  // Meilisearch answers these two with 200, not 202.
  route<AppContext>('POST', '/tasks/cancel', key('tasks.cancel'), async ({ engine, req, auth }) => {
    const filter = parseMutationQuery(req.rawQuery, 'cancel')
    return json(200, await cancelTasks(engine, { ...filter, indexScope: auth.indexScope }, `?${req.rawQuery}`))
  }),
  route<AppContext>('DELETE', '/tasks', key('tasks.delete'), async ({ engine, req, auth }) => {
    const filter = parseMutationQuery(req.rawQuery, 'delete')
    return json(200, await deleteTasks(engine, { ...filter, indexScope: auth.indexScope }, `?${req.rawQuery}`))
  }),
  route<AppContext>('GET', '/batches', key('tasks.get'), async ({ engine, req, auth }) => {
    const { filter, page } = parseListQuery(req.rawQuery)
    return json(200, await listBatches(engine, { ...filter, indexScope: auth.indexScope }, page))
  }),
  route<AppContext>('GET', '/batches/:uid', key('tasks.get'), async ({ engine, params, auth }) => json(200, await getBatch(engine, parseBatchUid(params.uid!), auth.indexScope))),
]

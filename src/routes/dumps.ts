/** `POST /dumps` and `POST /snapshots`: each registers its task (202); the files appear when the task succeeds. */
import { createDump, createSnapshot } from '../../engine/index.js'
import { json } from '../http/json.js'
import { key, route } from '../http/router.js'
import type { AppContext, AppRoute } from './context.js'

export const dumpRoutes: AppRoute[] = [
  route<AppContext>('POST', '/dumps', key('dumps.create'), async ({ engine }) => json(202, await createDump(engine))),
  route<AppContext>('POST', '/snapshots', key('snapshots.create'), async ({ engine }) => json(202, await createSnapshot(engine))),
]

/**
 * The index operations every scenario needs around its measurements: create an index, change its settings (each
 * waited for until its task succeeded), and read how many documents it holds.
 */
import { call, type Endpoint } from './requests.js'
import { expectTask } from './task-wait.js'

/** Create the index (`primaryKey`, `id` by default) and wait for it; throws unless the task succeeded. */
export async function createIndex(endpoint: Endpoint, uid: string, timeoutMs: number, pollMs = 20, primaryKey = 'id'): Promise<void> {
  await expectTask(endpoint, 'POST', '/indexes', { uid, primaryKey }, timeoutMs, 'index creation', pollMs)
}

/** PATCH the index's settings and wait for the task; throws unless it succeeded (`what` names it). Returns the task. */
export function patchSettings(endpoint: Endpoint, uid: string, settings: Record<string, unknown>, timeoutMs: number, what = `settings ${JSON.stringify(settings)}`, pollMs = 20): Promise<Record<string, any>> {
  return expectTask(endpoint, 'PATCH', `/indexes/${uid}/settings`, settings, timeoutMs, what, pollMs)
}

/** `numberOfDocuments` of `GET /indexes/{uid}/stats`, or null when it cannot be read. */
export async function numberOfDocuments(endpoint: Endpoint, uid: string): Promise<number | null> {
  const { status, body } = await call(endpoint, 'GET', `/indexes/${uid}/stats`, undefined, 30_000)
  return status === 200 && typeof body?.numberOfDocuments === 'number' ? body.numberOfDocuments : null
}

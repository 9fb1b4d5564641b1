/**
 * Query parameters of `GET /tasks`, `GET /batches`, `POST /tasks/cancel` and `DELETE /tasks`, validated with
 * Meilisearch's codes and messages. Lists are comma-separated; `*` anywhere in a list (or as a date) means
 * "no filter on this".
 */
import { TesseraError } from '../../engine/errors/index.js'
import { TASK_STATUSES, TASK_TYPES, type TaskStatus, type TaskType } from '../../engine/tasks/types.js'
import { parseDateParam } from '../../engine/tasks/time.js'
import type { Page, TaskFilter } from '../../engine/tasks/query.js'
import { booleanParam, invalidParameter, parseQuery, positiveIntegerParam } from './deserr.js'
import { decodePathSegment, indexUidMessage, isValidIndexUid } from './index-uid.js'

const FILTERS = ['batchUids', 'uids', 'canceledBy', 'types', 'statuses', 'indexUids', 'afterEnqueuedAt', 'beforeEnqueuedAt', 'afterStartedAt', 'beforeStartedAt', 'afterFinishedAt', 'beforeFinishedAt'] as const
/** Accepted names, in the order Meilisearch lists them in its "Unknown parameter" message. */
export const LIST_PARAMS = ['limit', 'from', 'reverse', ...FILTERS] as const
export const FILTER_PARAMS = ['uids', 'batchUids', 'canceledBy', 'types', 'statuses', 'indexUids', 'afterEnqueuedAt', 'beforeEnqueuedAt', 'afterStartedAt', 'beforeStartedAt', 'afterFinishedAt', 'beforeFinishedAt'] as const

/** Validate each item of a comma list; `undefined` when the list holds `*`. */
function listParam<T>(name: string, text: string, parse: (item: string, label: string) => T): T[] | undefined {
  const items = text.split(',').map((s) => s.trim())
  const several = items.length > 1
  let star = false
  const out: T[] = []
  items.forEach((item, i) => {
    if (item === '*') { star = true; return }
    out.push(parse(item, several ? `${name}[${i}]` : name))
  })
  return star ? undefined : out
}

const code = (suffix: string) => `invalid_task_${suffix}`

function parseFilter(params: Map<string, string>): TaskFilter {
  const filter: TaskFilter = {}
  const get = (n: string) => params.get(n)
  let v: string | undefined
  if ((v = get('uids')) !== undefined) filter.uids = listParam('uids', v, (s, l) => positiveIntegerParam(code('uids'), l, s))
  if ((v = get('batchUids')) !== undefined) filter.batchUids = listParam('batchUids', v, (s, l) => positiveIntegerParam('invalid_batch_uids', l, s))
  if ((v = get('canceledBy')) !== undefined) filter.canceledBy = listParam('canceledBy', v, (s, l) => positiveIntegerParam(code('canceled_by'), l, s))
  if ((v = get('types')) !== undefined) {
    filter.types = listParam('types', v, (s, l) => {
      // Meilisearch compares task types ignoring ASCII case (`Kind::from_str`).
      const type = TASK_TYPES.find((t) => t.toLowerCase() === s.toLowerCase())
      if (type === undefined) {
        throw invalidParameter(code('types'), l, `\`${s}\` is not a valid task type. Available types are ${TASK_TYPES.map((t) => `\`${t}\``).join(', ')}.`)
      }
      return type
    })
  }
  if ((v = get('statuses')) !== undefined) {
    filter.statuses = listParam('statuses', v, (s, l) => {
      if (!(TASK_STATUSES as readonly string[]).includes(s)) {
        throw invalidParameter(code('statuses'), l, `\`${s}\` is not a valid task status. Available statuses are ${TASK_STATUSES.map((t) => `\`${t}\``).join(', ')}.`)
      }
      return s as TaskStatus
    })
  }
  if ((v = get('indexUids')) !== undefined) {
    filter.indexUids = listParam('indexUids', v, (s, l) => {
      if (!isValidIndexUid(s)) throw invalidParameter('invalid_index_uid', l, indexUidMessage(s))
      return s
    })
  }
  const dates: [keyof TaskFilter, string, boolean][] = [
    ['afterEnqueuedAt', 'after_enqueued_at', true], ['beforeEnqueuedAt', 'before_enqueued_at', false],
    ['afterStartedAt', 'after_started_at', true], ['beforeStartedAt', 'before_started_at', false],
    ['afterFinishedAt', 'after_finished_at', true], ['beforeFinishedAt', 'before_finished_at', false],
  ]
  for (const [name, suffix, after] of dates) {
    const text = get(name)
    if (text === undefined || text.trim() === '*') continue
    const value = parseDateParam(text.trim(), after)
    if (value === undefined) {
      throw invalidParameter(code(suffix), name, `\`${text}\` is an invalid date-time. It should follow the YYYY-MM-DD or RFC 3339 date-time format.`)
    }
    ;(filter as Record<string, unknown>)[name] = value
  }
  return filter
}

/** `GET /tasks` and `GET /batches`. */
export function parseListQuery(raw: string): { filter: TaskFilter; page: Page } {
  const params = parseQuery(raw, LIST_PARAMS)
  const page: Page = { limit: 20, reverse: false }
  const limit = params.get('limit')
  if (limit !== undefined) page.limit = positiveIntegerParam(code('limit'), 'limit', limit)
  const from = params.get('from')
  if (from !== undefined) page.from = positiveIntegerParam(code('from'), 'from', from)
  const reverse = params.get('reverse')
  if (reverse !== undefined) page.reverse = booleanParam(code('reverse'), 'reverse', reverse)
  return { filter: parseFilter(params), page }
}

/**
 * `POST /tasks/cancel` and `DELETE /tasks`: the same filters, no paging, and at least one filter given
 * (`statuses=*` counts as one and matches everything).
 */
export function parseMutationQuery(raw: string, action: 'cancel' | 'delete'): TaskFilter {
  const params = parseQuery(raw, FILTER_PARAMS)
  const filter = parseFilter(params)
  if (params.size === 0) {
    throw new TesseraError('missing_task_filters', `Query parameters to filter the tasks to ${action} are missing. Available query parameters are: \`uids\`, \`indexUids\`, \`statuses\`, \`types\`, \`canceledBy\`, \`beforeEnqueuedAt\`, \`afterEnqueuedAt\`, \`beforeStartedAt\`, \`afterStartedAt\`, \`beforeFinishedAt\`, \`afterFinishedAt\`.`)
  }
  return filter
}

function uidParam(raw: string, kind: 'Task' | 'Batch'): number {
  if (!/^\d+$/.test(raw) || Number(raw) > 0xffffffff) {
    throw new TesseraError(kind === 'Task' ? 'invalid_task_uids' : 'invalid_batch_uids', `${kind} uid \`${decodePathSegment(raw)}\` is invalid. It should only contain numeric characters.`)
  }
  return Number(raw)
}

/** `/tasks/{uid}`. */
export const parseTaskUid = (raw: string): number => uidParam(raw, 'Task')
/** `/batches/{uid}`. */
export const parseBatchUid = (raw: string): number => uidParam(raw, 'Batch')

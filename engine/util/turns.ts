/**
 * Long work on the thread that serves requests, cut into turns: searches on other indexes answer between two turns
 * instead of waiting for a whole batch's merge. The work is written as a generator that yields where it may pause
 * (and yields a promise where it must wait for one, e.g. a pool job); `inTurns` runs it giving the event loop a turn
 * once TURN_MS have passed, `straight` runs it to the end without pausing (it must then never yield a promise).
 */
import { setImmediate } from 'node:timers/promises'

/** The longest stretch, ms, the indexing thread works before it lets requests in. */
export const TURN_MS = 4

/** What a step yields: nothing (a point where it may pause), or a promise whose value it is resumed with. */
export type Pause = undefined | Promise<unknown>
export type Steps<R> = Generator<Pause, R, unknown>

/** Run `steps` to the end at once. */
export function straight<R>(steps: Steps<R>): R {
  for (let r = steps.next(); ; r = steps.next()) {
    if (r.done) return r.value
    if (r.value !== undefined) throw new Error('a step waits for a promise: run it in turns')
  }
}

/** Run `steps`, giving the event loop a turn whenever `turnMs` have passed since the last one. */
export async function inTurns<R>(steps: Steps<R>, turnMs = TURN_MS): Promise<R> {
  let since = performance.now()
  let value: unknown
  for (let r = steps.next(); ; r = steps.next(value)) {
    if (r.done) return r.value
    value = undefined
    if (r.value !== undefined) {
      value = await r.value
      since = performance.now()
    } else if (performance.now() - since > turnMs) {
      await setImmediate()
      since = performance.now()
    }
  }
}

/** For async loops: a function to await at each step, which gives the event loop a turn once `turnMs` have passed. */
export function turnTaker(turnMs = TURN_MS): () => Promise<void> | undefined {
  let since = performance.now()
  return () => {
    if (performance.now() - since <= turnMs) return undefined
    return setImmediate().then(() => { since = performance.now() })
  }
}

/**
 * Changes of instance-wide state that are not tasks: the network (`PATCH /network`), the experimental features and
 * the API keys. On a single node a change is applied here at once (durable before it resolves), as Meilisearch's
 * synchronous routes do. In cluster mode it goes through the replicated log like a task (engine/cluster/), and
 * every node applies it in log order, so all nodes hold the same network, features and keys at each log position.
 *
 * A change is planned from its body against the current state (`StatePlanner`): the writes that apply it and what
 * switches the in-memory state once they are durable. A plan that throws refuses the change; planning depends only
 * on the body and the state, so every node refuses or applies a change alike. `here` says whether this node took
 * the request (a network's `self` is each node's own).
 */
import type { Store, WriteOp } from '../storage/index.js'
import type { NewTask } from './queue.js'

export type StateKind = 'network' | 'features' | 'keys'

export interface StatePlan {
  ops: WriteOp[]
  /** Switch the in-memory state, once `ops` are durable; returns what the request answers. */
  apply(): unknown
  /**
   * Cluster mode: a task the change causes, registered at the change's own place in the log with `ops` (a network
   * change's shard move, network/topology-task.ts), so the change is never applied without it.
   */
  task?: NewTask
}

/**
 * Plans a change; `body` is JSON (it travels through the log). Throws to refuse it. Planning changes nothing (the
 * node that takes a request plans it once before publishing it, to refuse a bad one without a log entry).
 */
export type StatePlanner = (body: unknown, here: boolean) => StatePlan

/** Where changes go in cluster mode: the replicated log (engine/cluster/jetstream-log.ts). */
export interface StateReplicator {
  replicate(kind: StateKind, body: unknown): Promise<unknown>
}

export class StateChanges {
  private readonly planners = new Map<StateKind, StatePlanner>()
  private readonly waiting = new Map<StateKind, (() => void)[]>()
  /** Local changes are applied one after another, so two concurrent ones cannot lose each other's writes. */
  private chain: Promise<unknown> = Promise.resolve()
  private replicator: StateReplicator | null = null

  constructor(private readonly store: Store) {}

  register(kind: StateKind, planner: StatePlanner): void {
    this.planners.set(kind, planner)
    for (const resolve of this.waiting.get(kind) ?? []) resolve()
    this.waiting.delete(kind)
  }

  /**
   * Resolves once `kind` has a planner. The API keys' planner is registered by the service shell after the engine
   * opened; a node applying the log meanwhile waits for it rather than skip a key's change.
   */
  ready(kind: StateKind): Promise<void> {
    if (this.planners.has(kind)) return Promise.resolve()
    return new Promise((resolve) => {
      const list = this.waiting.get(kind) ?? []
      list.push(resolve)
      this.waiting.set(kind, list)
    })
  }

  plan(kind: StateKind, body: unknown, here: boolean): StatePlan {
    const planner = this.planners.get(kind)
    if (!planner) throw new Error(`no planner for ${kind} changes`)
    return planner(body, here)
  }

  /** Cluster mode: from now on, changes go through the replicated log. */
  replicateThrough(replicator: StateReplicator | null): void {
    this.replicator = replicator
  }

  /** Apply a change (here, or through the log in cluster mode); resolves with the plan's answer. */
  run(kind: StateKind, body: unknown): Promise<unknown> {
    const replicator = this.replicator
    if (replicator) {
      try {
        this.plan(kind, body, true)
      } catch (err) {
        return Promise.reject(err)
      }
      return replicator.replicate(kind, body)
    }
    const run = async (): Promise<unknown> => {
      const plan = this.plan(kind, body, true)
      await this.store.commit(plan.ops)
      return plan.apply()
    }
    const result = this.chain.then(run, run)
    this.chain = result.catch(() => undefined)
    return result
  }
}

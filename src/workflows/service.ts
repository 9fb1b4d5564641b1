/**
 * The workflow store as one object: workflows, tags, projects, listings and cursors over one WorkflowDb. The
 * routes get theirs from `serviceFor(engine.store)`, opened once per Store on first use, so the server needs no
 * wiring beyond registering the routes; tests and the bench open one on a Store of their own.
 */
import type { Store } from '../../engine/storage/index.js'
import { CursorCodec } from './cursor.js'
import { WorkflowDb } from './db.js'
import { Listing } from './listing.js'
import { Projects } from './projects.js'
import { Tags } from './tags.js'
import { Workflows } from './workflows.js'

export class WorkflowService {
  readonly workflows: Workflows
  readonly tags: Tags
  readonly projects: Projects
  readonly listing: Listing
  readonly cursors: CursorCodec

  private constructor(readonly db: WorkflowDb) {
    this.workflows = new Workflows(db)
    this.tags = new Tags(db)
    this.projects = new Projects(db)
    this.listing = new Listing(db, this.workflows, this.tags, this.projects)
    this.cursors = new CursorCodec(db.secret)
  }

  static async open(store: Store): Promise<WorkflowService> {
    return new WorkflowService(await WorkflowDb.open(store))
  }
}

const opened = new WeakMap<Store, Promise<WorkflowService>>()

/** The one WorkflowService of `store` (two services on one Store would each hand out seqs and hold locks alone). */
export function serviceFor(store: Store): Promise<WorkflowService> {
  let service = opened.get(store)
  if (!service) {
    service = WorkflowService.open(store)
    // A failed open (the disk, say) is retried by the next request rather than remembered.
    service.catch(() => opened.delete(store))
    opened.set(store, service)
  }
  return service
}

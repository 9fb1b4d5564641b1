/**
 * Projects own workflows (n8n's `shared` relation with role `workflow:owner`). Every database has one personal
 * project, where new workflows go (n8n puts them in the API key owner's personal project); team projects are
 * created through `POST /projects`, and workflows move between projects by transfer. Projects are never deleted
 * here, so a project that exists stays there for the checks that need it.
 */
import type { WorkflowDb } from './db.js'
import { stamp } from './db.js'
import { newId } from './ids.js'
import { layout } from './layout.js'
import type { ProjectRecord } from './types.js'

export class Projects {
  constructor(private readonly db: WorkflowDb) {}

  get personalId(): string {
    return this.db.personalProjectId
  }

  get(id: string): ProjectRecord | undefined {
    return this.db.get<ProjectRecord>(layout.project(id))
  }

  getMany(ids: string[]): (ProjectRecord | undefined)[] {
    return this.db.getMany<ProjectRecord>(ids.map((id) => layout.project(id)))
  }

  /** POST /projects: a team project (answered 201 by the route). n8n allows duplicate project names. */
  async create(name: string): Promise<ProjectRecord> {
    const now = stamp()
    const project: ProjectRecord = { id: newId(), seq: this.db.takeSeq(), name, type: 'team', createdAt: now, updatedAt: now }
    await this.db.commit([
      this.db.put(layout.project(project.id), project),
      this.db.put(layout.entry(layout.allProjects(), project.seq), Buffer.from(project.id)),
    ])
    return project
  }
}

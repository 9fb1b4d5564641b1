/**
 * The project routes Tessera keeps of n8n's (handlers/projects/projects.handler.ts): create (201) and list. n8n
 * checks a new project's name with zod after its validator and answers zod's first issue as the body.
 */
import { json } from '../http/json.js'
import { PROJECT_SCHEMA } from './bodies.js'
import type { Operation } from './operation.js'
import { presentProject } from './present.js'
import { PAGE_QUERY, pageReply, pageStart } from './paging.js'

/** CreateProjectDto: `name: z.string().min(1).max(255)`. */
const PROJECT_NAME_MAX = 255

function nameIssue(name: string) {
  if (name.length < 1) {
    return { code: 'too_small', minimum: 1, type: 'string', inclusive: true, exact: false, message: 'String must contain at least 1 character(s)', path: ['name'] }
  }
  if (name.length > PROJECT_NAME_MAX) {
    return { code: 'too_big', maximum: PROJECT_NAME_MAX, type: 'string', inclusive: true, exact: false, message: `String must contain at most ${PROJECT_NAME_MAX} character(s)`, path: ['name'] }
  }
  return null
}

export const PROJECT_OPERATIONS: Operation[] = [
  {
    method: 'GET', path: '/projects', action: 'projects.list', query: PAGE_QUERY,
    run: async (input) => {
      const { after, limit } = pageStart(input, 'projects', '')
      const page = await input.service.listing.projectPage(after, limit)
      return pageReply(input, 'projects', '', page, limit, page.items.map(presentProject))
    },
  },
  {
    method: 'POST', path: '/projects', action: 'projects.create', body: PROJECT_SCHEMA,
    run: async ({ body, service }) => {
      const name = (body as { name: string }).name
      const issue = nameIssue(name)
      if (issue) return json(400, issue)
      return json(201, presentProject(await service.projects.create(name)))
    },
  },
]

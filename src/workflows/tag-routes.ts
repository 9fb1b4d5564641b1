/**
 * The tag routes of n8n's public API (handlers/tags/tags.handler.ts): `POST /tags` answers 201, a name already
 * taken 409 `Tag already exists`, an unknown id 404 `Not Found`; `DELETE` answers the deleted tag. The listing
 * pages in creation order with the same keyset cursors as the workflows'.
 */
import { json } from '../http/json.js'
import { TAG_SCHEMA } from './bodies.js'
import { notFound } from './errors.js'
import type { Operation } from './operation.js'
import { PAGE_QUERY, pageReply, pageStart } from './paging.js'
import { presentTag } from './present.js'

export const TAG_OPERATIONS: Operation[] = [
  {
    method: 'GET', path: '/tags', action: 'tags.list', query: PAGE_QUERY,
    run: async (input) => {
      const { after, limit } = pageStart(input, 'tags', '')
      const page = await input.service.listing.tagPage(after, limit)
      return pageReply(input, 'tags', '', page, limit, page.items.map(presentTag))
    },
  },
  {
    method: 'POST', path: '/tags', action: 'tags.create', body: TAG_SCHEMA,
    run: async ({ body, service }) => json(201, presentTag(await service.tags.create((body as { name: string }).name))),
  },
  {
    method: 'GET', path: '/tags/:id', action: 'tags.get',
    run: async ({ params, service }) => {
      const tag = service.tags.get(params.id!)
      if (!tag) throw notFound()
      return json(200, presentTag(tag))
    },
  },
  {
    method: 'PUT', path: '/tags/:id', action: 'tags.update', body: TAG_SCHEMA,
    run: async ({ params, body, service }) => json(200, presentTag(await service.tags.rename(params.id!, (body as { name: string }).name))),
  },
  {
    method: 'DELETE', path: '/tags/:id', action: 'tags.delete',
    run: async ({ params, service }) => json(200, presentTag(await service.tags.remove(params.id!))),
  },
]

/**
 * Tags: records, the unique-name index and the listing order. A tag's workflows are found through the
 * `taggedWorkflows` index, which deleting a tag clears in the same commit; the workflows' records keep the
 * deleted id until they are next written, and every reader skips ids that name no tag.
 */
import type { WriteOp } from '../../engine/storage/index.js'
import { stamp, type WorkflowDb } from './db.js'
import { ApiError, notFound } from './errors.js'
import { newId } from './ids.js'
import { layout, rangeEnd } from './layout.js'
import { lockName } from './locks.js'
import type { TagRecord } from './types.js'

/** n8n's TagEntity column is 24 characters, checked by class-validator with this message. */
export const TAG_NAME_MAX = 24

const tagExists = () => new ApiError(409, 'Tag already exists')

/** n8n trims a tag's name before saving it; an empty or too long name is refused. */
function checkedName(name: string): string {
  const trimmed = name.trim()
  if (trimmed.length < 1 || trimmed.length > TAG_NAME_MAX) throw new ApiError(400, `Tag name must be 1 to ${TAG_NAME_MAX} characters long.`)
  return trimmed
}

export class Tags {
  constructor(private readonly db: WorkflowDb) {}

  get(id: string): TagRecord | undefined {
    return this.db.get<TagRecord>(layout.tag(id))
  }

  getMany(ids: string[]): (TagRecord | undefined)[] {
    return this.db.getMany<TagRecord>(ids.map((id) => layout.tag(id)))
  }

  /** The ids of the tags with these exact names (undefined for a name no tag has). */
  idsByNames(names: string[]): (string | undefined)[] {
    return this.db.store.getMany('workflows', names.map((n) => layout.tagName(n))).map((v) => v?.toString('utf8'))
  }

  /** POST /tags (answered 201 by the route); 409 when the name is taken. */
  async create(name: string): Promise<TagRecord> {
    const wanted = checkedName(name)
    return this.db.locks.hold([lockName('name', wanted)], async () => {
      if (this.idsByNames([wanted])[0] !== undefined) throw tagExists()
      const now = stamp()
      const tag: TagRecord = { id: newId(), seq: this.db.takeSeq(), name: wanted, createdAt: now, updatedAt: now }
      await this.db.commit([
        this.db.put(layout.tag(tag.id), tag),
        this.db.put(layout.tagName(tag.name), Buffer.from(tag.id)),
        this.db.put(layout.entry(layout.allTags(), tag.seq), Buffer.from(tag.id)),
      ])
      return tag
    })
  }

  /** PUT /tags/{id}: 404 for an unknown tag (checked first, as n8n does), 409 when another tag has the name. */
  async rename(id: string, name: string): Promise<TagRecord> {
    if (!this.get(id)) throw notFound()
    const wanted = checkedName(name)
    return this.db.locks.hold([lockName('name', wanted), lockName('tag', id)], async () => {
      const old = this.get(id)
      if (!old) throw notFound()
      const holder = this.idsByNames([wanted])[0]
      if (holder !== undefined && holder !== id) throw tagExists()
      const tag: TagRecord = { ...old, name: wanted, updatedAt: stamp(old.updatedAt) }
      const ops: WriteOp[] = [this.db.put(layout.tag(id), tag), this.db.put(layout.tagName(wanted), Buffer.from(id))]
      if (old.name !== wanted) ops.push(this.db.del(layout.tagName(old.name)))
      await this.db.commit(ops)
      return tag
    })
  }

  /** DELETE /tags/{id}: answers the deleted tag; its workflows lose it in the same commit. */
  remove(id: string): Promise<TagRecord> {
    return this.db.locks.hold([lockName('tag', id)], async () => {
      const old = this.get(id)
      if (!old) throw notFound()
      const ops: WriteOp[] = [
        this.db.del(layout.tag(id)),
        this.db.del(layout.tagName(old.name)),
        this.db.del(layout.entry(layout.allTags(), old.seq)),
      ]
      // New taggings of this tag wait for its lock (Workflows.setTags), so this range is complete.
      const { prefix } = layout.taggedWorkflows(id)
      for await (const [key] of this.db.store.scan('workflows', { gte: prefix, lt: rangeEnd(prefix) })) ops.push(this.db.del(key))
      await this.db.commit(ops)
      return old
    })
  }
}

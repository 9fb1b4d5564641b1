/**
 * A dump or snapshot file that cannot be imported (not a readable gzipped tar, not a v6 dump, a malformed record,
 * data the engine refuses). The import stops before anything is put in place.
 */
export class UnreadableImport extends Error {}

export const unreadableDump = (detail: string): UnreadableImport => new UnreadableImport(detail)

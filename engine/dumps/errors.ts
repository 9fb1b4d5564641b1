/** What goes wrong with a dump file: it is not a readable v6 dump. Import refuses it before anything is written. */
export class BadDump extends Error {}

export const badDump = (detail: string): BadDump => new BadDump(detail)

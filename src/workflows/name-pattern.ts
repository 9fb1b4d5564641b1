/**
 * The `name` filter of `GET /workflows`: n8n queries `name LIKE '%' || trim(name) || '%'`, on SQLite by default,
 * where LIKE has two wildcards (`%` any run of characters, `_` one character), no escape character, and folds
 * case for ASCII letters only.
 */

const foldAscii = (text: string) => text.replace(/[A-Z]/g, (c) => c.toLowerCase())

/** A test of names against the pattern `%<fragment>%`. */
export function nameMatcher(fragment: string): (name: string) => boolean {
  let source = ''
  for (const ch of foldAscii(fragment)) {
    if (ch === '%') source += '[\\s\\S]*'
    else if (ch === '_') source += '[\\s\\S]'
    else source += ch.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')
  }
  const pattern = new RegExp(source, 'u')
  return (name) => pattern.test(foldAscii(name))
}

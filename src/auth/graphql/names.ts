/** GraphQL names as Payload forms them (`formatName`, `toWords`). */

/** A valid GraphQL name: characters GraphQL refuses become `_` (spaces vanish), a leading digit gets a `_`. */
export function formatName(text: string): string {
  const plain = text.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').replace(/ /g, '').replace(/[^A-Za-z0-9_]/g, '_')
  const named = /^[0-9]/.test(plain) ? `_${plain}` : plain
  return named || '_'
}

/** Words of `text` capitalized and joined: `users-read-Access` → `UsersReadAccess`, `User` → `User`. */
export function toWords(text: string): string {
  return text
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join('')
}

/** `<Label>` of the operation names: the singular label as one word (`User`, `AdminUser`). */
export function singularName(label: string): string {
  return formatName(toWords(label))
}

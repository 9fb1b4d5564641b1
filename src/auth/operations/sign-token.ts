/** The JWT of a user (Payload's `getFieldsToSign` + `jwtSign`): id, collection, email, sid, `saveToJWT` fields. */
import type { AuthCollection, AuthService } from '../service.js'

export function signUserToken(auth: AuthService, collection: AuthCollection, user: Record<string, unknown>, email: string, sid: string | undefined): { token: string; exp: number } {
  const fields: Record<string, unknown> = { id: user.id, collection: collection.slug, email }
  if (sid !== undefined) fields.sid = sid
  for (const field of collection.customFields) {
    if (!field.saveToJWT) continue
    fields[typeof field.saveToJWT === 'string' ? field.saveToJWT : field.name] = user[field.name]
  }
  return auth.tokens.sign(fields, collection.auth.tokenExpiration)
}

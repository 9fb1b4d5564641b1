/**
 * Server-side sessions (Payload's `useSessions`): a login adds `{id, createdAt, expiresAt}` to the user and puts
 * the id in the token's `sid`; a token is honoured only while its session exists. Refresh moves the session's
 * expiry, logout removes it (or all of them), and expired ones are pruned whenever the list is written.
 */
import { randomUUID } from 'node:crypto'
import type { Session } from './store/user-record.js'

export function pruneSessions(sessions: Session[] | undefined, now: number): Session[] {
  return (sessions ?? []).filter((s) => Date.parse(s.expiresAt) > now)
}

export function newSession(now: number, tokenExpirationSeconds: number): Session {
  return { id: randomUUID(), createdAt: new Date(now).toISOString(), expiresAt: new Date(now + tokenExpirationSeconds * 1000).toISOString() }
}

export function hasSession(sessions: Session[] | undefined, sid: string | undefined): boolean {
  return sid !== undefined && (sessions ?? []).some((s) => s.id === sid)
}

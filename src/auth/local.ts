/**
 * The local API: area A's operations in-process, without HTTP (Payload's `payload.login(...)` and friends).
 *
 *   const tessera = await createTessera({ dbPath: './data.ms', secret, collections: [...] })
 *   const { token } = await tessera.login({ collection: 'users', data: { email, password }, res })
 *   await tessera.close()
 *
 * It opens its own `Store` on `dbPath` (one process may open a database once: not while a server in the same
 * process has it open). As in Payload, access control is bypassed unless `overrideAccess: false`; calls acting
 * as a user take that user's `token`. A `res` (node `ServerResponse`, a `Headers`, or `{headers}`) receives the
 * token cookie.
 */
import { resolve } from 'node:path'
import { Store } from '../../engine/storage/index.js'
import type { AuthConfig, Where } from './config/types.js'
import { sanitizeAuthConfig } from './config/sanitize.js'
import { APIError } from './errors.js'
import { AuthService, type AuthCollection, type AuthLogger } from './service.js'
import type { OperationRequest } from './operations/types.js'
import { accessOperation } from './operations/access.js'
import { createOperation } from './operations/create.js'
import { findByIDOperation, findOperation, type PaginatedDocs } from './operations/find.js'
import { forgotPasswordOperation } from './operations/forgot-password.js'
import { loginOperation, type LoginResult } from './operations/login.js'
import { logoutOperation } from './operations/logout.js'
import { meOperation, type MeResult } from './operations/me.js'
import { refreshOperation, type RefreshResult } from './operations/refresh.js'
import { resetPasswordOperation, type ResetPasswordResult } from './operations/reset-password.js'
import { unlockOperation } from './operations/unlock.js'
import { updateOperation } from './operations/update.js'
import { verifyEmailOperation } from './operations/verify-email.js'
import type { SanitizedPermissions } from './access/sanitize.js'
import { expiredCookie, tokenCookie } from './rest/cookies.js'

export interface TesseraOptions extends AuthConfig {
  /** Data directory (the same layout as the server's `--db-path`). */
  dbPath: string
  env?: 'development' | 'production'
  log?: AuthLogger
}

/** Where `login` (and refresh, reset, logout) put the cookie. */
export type CookieSink =
  | { setHeader(name: string, value: string): unknown }
  | { headers: { append(name: string, value: string): void } }
  | { headers: Record<string, string> }

interface Call {
  collection: string
  /** Act as the user of this JWT (for access checks and `me`, `refreshToken`, `logout`). */
  token?: string
}

interface Access {
  /** Apply access control as the `token`'s user (default: bypass, as Payload's local API). */
  overrideAccess?: boolean
  showHiddenFields?: boolean
}

export interface Tessera {
  readonly auth: AuthService
  login(args: Call & Access & { data: { email: string; password: string }; res?: CookieSink }): Promise<LoginResult>
  me(args: Call): Promise<MeResult>
  refreshToken(args: Call & { res?: CookieSink }): Promise<RefreshResult>
  logout(args: Call & { allSessions?: boolean; res?: CookieSink }): Promise<boolean>
  verifyEmail(args: Call & { token: string }): Promise<boolean>
  unlock(args: Call & Access & { data: { email: string } }): Promise<boolean>
  forgotPassword(args: Call & { data: { email: string }; disableEmail?: boolean; expiration?: number }): Promise<string | null>
  resetPassword(args: Call & Access & { data: { token: string; password: string }; res?: CookieSink }): Promise<ResetPasswordResult>
  create(args: Call & Access & { data: Record<string, unknown>; disableVerificationEmail?: boolean }): Promise<Record<string, unknown>>
  update(args: Call & Access & { id: string; data: Record<string, unknown> }): Promise<Record<string, unknown>>
  find(args: Call & Access & { where?: Where; limit?: number; page?: number }): Promise<PaginatedDocs>
  findByID(args: Call & Access & { id: string }): Promise<Record<string, unknown>>
  access(args?: { token?: string }): Promise<SanitizedPermissions>
  close(): Promise<void>
}

const quietLog: AuthLogger = { info: () => {}, warn: (m) => process.emitWarning(m), error: (m) => process.emitWarning(m) }

function setCookie(res: CookieSink | undefined, cookie: string): void {
  if (!res) return
  if ('setHeader' in res && typeof res.setHeader === 'function') res.setHeader('Set-Cookie', cookie)
  else if ('headers' in res && typeof (res.headers as { append?: unknown }).append === 'function') (res.headers as { append(n: string, v: string): void }).append('Set-Cookie', cookie)
  else if ('headers' in res) (res.headers as Record<string, string>)['set-cookie'] = cookie
}

export async function createTessera(options: TesseraOptions): Promise<Tessera> {
  const { dbPath, env = 'development', log = quietLog, ...config } = options
  const sanitized = sanitizeAuthConfig(config, env)
  const store = await Store.open(resolve(dbPath))
  const auth = new AuthService({ config: sanitized, store, log })
  if (sanitized.developmentSecret) log.warn('tessera local API: no secret configured, using the development secret')

  const collectionOf = (slug: string): AuthCollection => {
    const collection = auth.collection(slug)
    if (!collection) throw new APIError(`The collection with slug ${slug} can't be found.`, 404)
    return collection
  }
  const requestOf = (token: string | undefined): OperationRequest => token
    ? { user: auth.authenticate(new Map([['authorization', `JWT ${token}`]])), token, origin: null }
    : { user: null, token: null, origin: null }
  const base = (call: Call) => ({ auth, collection: collectionOf(call.collection), req: requestOf(call.token) })
  const override = (a: Access) => a.overrideAccess !== false

  return {
    auth,
    async login(a) {
      const args = base(a)
      const result = await loginOperation({ ...args, data: a.data, overrideAccess: override(a) })
      setCookie(a.res, tokenCookie(auth, args.collection, result.token))
      return result
    },
    me: async (a) => meOperation(base(a)),
    async refreshToken(a) {
      const args = base(a)
      const result = await refreshOperation(args)
      setCookie(a.res, tokenCookie(auth, args.collection, result.refreshedToken))
      return result
    },
    async logout(a) {
      const args = base(a)
      const result = await logoutOperation({ ...args, allSessions: a.allSessions })
      setCookie(a.res, expiredCookie(auth, args.collection))
      return result
    },
    // `token` here is the verification token, not a JWT: the call acts as nobody.
    verifyEmail: async (a) => verifyEmailOperation({ ...base({ collection: a.collection }), token: a.token }),
    unlock: async (a) => Boolean(await unlockOperation({ ...base(a), data: a.data, overrideAccess: override(a) })),
    forgotPassword: async (a) => forgotPasswordOperation({ ...base(a), data: a.data, disableEmail: a.disableEmail, expiration: a.expiration }),
    async resetPassword(a) {
      const args = base({ collection: a.collection })
      const result = await resetPasswordOperation({ ...args, data: a.data, overrideAccess: override(a) })
      setCookie(a.res, tokenCookie(auth, args.collection, result.token))
      return result
    },
    create: async (a) => createOperation({ ...base(a), data: a.data, overrideAccess: override(a), showHiddenFields: a.showHiddenFields, disableVerificationEmail: a.disableVerificationEmail }),
    update: async (a) => updateOperation({ ...base(a), id: a.id, data: a.data, overrideAccess: override(a), showHiddenFields: a.showHiddenFields }),
    find: async (a) => findOperation({ ...base(a), where: a.where, limit: a.limit, page: a.page, overrideAccess: override(a), showHiddenFields: a.showHiddenFields }),
    findByID: async (a) => findByIDOperation({ ...base(a), id: a.id, overrideAccess: override(a), showHiddenFields: a.showHiddenFields }),
    access: async (a = {}) => accessOperation({ auth, req: requestOf(a.token) }),
    async close() {
      auth.close()
      await store.close()
    },
  }
}

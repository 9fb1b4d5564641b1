/**
 * The REST endpoints of area A (Payload's `endpoints/`): each reads its input, calls one operation and shapes
 * the answer — Payload's bodies, messages and statuses, and the token cookie where Payload sets it.
 */
import type { Response } from '../../http/types.js'
import { MESSAGES } from '../messages.js'
import type { AuthCollection, AuthService } from '../service.js'
import type { OperationRequest } from '../operations/types.js'
import { accessOperation, globalAccessOperation } from '../operations/access.js'
import { createOperation } from '../operations/create.js'
import { findByIDOperation, findOperation } from '../operations/find.js'
import { forgotPasswordOperation } from '../operations/forgot-password.js'
import { initOperation } from '../operations/init.js'
import { loginOperation } from '../operations/login.js'
import { logoutOperation } from '../operations/logout.js'
import { meOperation } from '../operations/me.js'
import { refreshOperation } from '../operations/refresh.js'
import { registerFirstUserOperation } from '../operations/register-first-user.js'
import { resetPasswordOperation } from '../operations/reset-password.js'
import { unlockOperation } from '../operations/unlock.js'
import { updateOperation } from '../operations/update.js'
import { verifyEmailOperation } from '../operations/verify-email.js'
import { expiredCookie, tokenCookie } from './cookies.js'

export interface EndpointContext {
  auth: AuthService
  req: OperationRequest
  params: Record<string, string>
  query: URLSearchParams
  data(): Promise<Record<string, unknown>>
}

export interface CollectionEndpointContext extends EndpointContext {
  collection: AuthCollection
}

/** Thrown by an endpoint to answer as Payload does for an unknown route (an unknown collection or global). */
export class RouteNotFound extends Error {}

export function respond(status: number, body: unknown, cookie?: string): Response {
  const headers: Record<string, string> = { 'content-type': 'application/json' }
  if (cookie !== undefined) headers['set-cookie'] = cookie
  return { status, headers, body: JSON.stringify(body) }
}

const str = (v: unknown): string => (typeof v === 'string' ? v : '')
const positiveInt = (v: string | null): number | undefined => (v !== null && /^\d+$/.test(v) ? Number(v) : undefined)

export const collectionEndpoints: Record<string, (ctx: CollectionEndpointContext) => Promise<Response>> = {
  async login({ auth, collection, req, data }) {
    const body = await data()
    const result = await loginOperation({ auth, collection, req, data: { email: str(body.email), password: str(body.password) } })
    return respond(200, { message: MESSAGES.passed, ...result }, tokenCookie(auth, collection, result.token))
  },
  async me({ auth, collection, req }) {
    return respond(200, { ...(await meOperation({ auth, collection, req })), message: MESSAGES.account })
  },
  async logout({ auth, collection, req, query }) {
    await logoutOperation({ auth, collection, req, allSessions: query.get('allSessions') === 'true' })
    return respond(200, { message: MESSAGES.logoutSuccessful }, expiredCookie(auth, collection))
  },
  async refresh({ auth, collection, req }) {
    const result = await refreshOperation({ auth, collection, req })
    return respond(200, { message: MESSAGES.tokenRefreshSuccessful, ...result }, tokenCookie(auth, collection, result.refreshedToken))
  },
  async verify({ auth, collection, req, params }) {
    await verifyEmailOperation({ auth, collection, req, token: params.token })
    return respond(200, { message: MESSAGES.accountVerified })
  },
  async unlock({ auth, collection, req, data }) {
    await unlockOperation({ auth, collection, req, data: { email: str((await data()).email) } })
    return respond(200, { message: MESSAGES.success })
  },
  async forgotPassword({ auth, collection, req, data }) {
    const body = await data()
    await forgotPasswordOperation({
      auth, collection, req, data: { email: str(body.email) },
      disableEmail: Boolean(body.disableEmail),
      expiration: typeof body.expiration === 'number' ? body.expiration : undefined,
    })
    return respond(200, { message: MESSAGES.success })
  },
  async resetPassword({ auth, collection, req, data }) {
    const body = await data()
    const result = await resetPasswordOperation({ auth, collection, req, data: { token: str(body.token), password: str(body.password) }, overrideAccess: undefined })
    return respond(200, { message: MESSAGES.passwordResetSuccessfully, ...result }, tokenCookie(auth, collection, result.token))
  },
  async firstRegister({ auth, collection, req, data }) {
    const body = await data()
    const result = await registerFirstUserOperation({ auth, collection, req, data: { ...body, email: str(body.email), password: str(body.password) } })
    return respond(200, { exp: result.exp, message: MESSAGES.successfullyRegisteredFirstUser, token: result.token, user: result.user }, tokenCookie(auth, collection, result.token))
  },
  async init({ auth, collection, req }) {
    return respond(200, { initialized: await initOperation({ auth, collection, req }) })
  },
  async find({ auth, collection, req, query }) {
    return respond(200, await findOperation({ auth, collection, req, limit: positiveInt(query.get('limit')), page: positiveInt(query.get('page')) }))
  },
  async findByID({ auth, collection, req, params }) {
    return respond(200, await findByIDOperation({ auth, collection, req, id: params.id! }))
  },
  async create({ auth, collection, req, data }) {
    const doc = await createOperation({ auth, collection, req, data: await data() })
    return respond(201, { doc, message: MESSAGES.successfullyCreated(collection.labels.singular) })
  },
  async update({ auth, collection, req, params, data }) {
    const doc = await updateOperation({ auth, collection, req, id: params.id!, data: await data() })
    return respond(200, { doc, message: MESSAGES.updatedSuccessfully })
  },
}

export async function accessEndpoint({ auth, req }: EndpointContext): Promise<Response> {
  return respond(200, await accessOperation({ auth, req }))
}

export async function globalAccessEndpoint({ auth, req, params }: EndpointContext): Promise<Response> {
  const global = auth.config.globals.find((g) => g.slug === params.slug)
  if (!global) throw new RouteNotFound()
  return respond(200, await globalAccessOperation({ global, req }))
}

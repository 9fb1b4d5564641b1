/**
 * Me (Payload's `meOperation`): the logged-in user of this collection as it reads itself now, with the strategy
 * that authenticated it and, when a JWT was presented, that token and its expiry. Nobody (or a user of another
 * collection) gets `{user: null}`.
 */
import { decodeExp } from '../crypto/jwt.js'
import { findByIDOperation } from './find.js'
import type { OperationArgs } from './types.js'

export interface MeResult {
  user: Record<string, unknown> | null
  collection?: string
  strategy?: string
  exp?: number
  token?: string
}

export async function meOperation(args: OperationArgs): Promise<MeResult> {
  const { collection, req } = args
  if (!req.user || req.user.collection !== collection.slug) return { user: null }
  const user = await findByIDOperation({ ...args, id: req.user.id, overrideAccess: false })
  const result: MeResult = { user: { ...user, collection: collection.slug, _strategy: req.user._strategy }, collection: req.user.collection, strategy: req.user._strategy }
  if (req.token) {
    const exp = decodeExp(req.token)
    if (exp !== undefined) result.exp = exp
    result.token = req.token
  }
  return result
}

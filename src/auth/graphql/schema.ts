/**
 * The GraphQL schema of area A, built from the config (Payload's auth queries and mutations, `<Label>` being the
 * singular label): `me<Label>`, `initialized<Label>`, `docAccess<Label>`, `Access`; `login<Label>`,
 * `logout<Label>`, `refreshToken<Label>`, `verifyEmail<Label>` (with verification on), `unlock<Label>` (with
 * lockout on), `forgotPassword<Label>`, `resetPassword<Label>`. Each resolver calls the same operation as REST
 * and sets the cookie where REST does.
 */
import { GraphQLBoolean, GraphQLInt, GraphQLNonNull, GraphQLObjectType, GraphQLSchema, GraphQLString, type GraphQLFieldConfigMap } from 'graphql'
import type { AuthCollection, AuthService } from '../service.js'
import type { OperationRequest } from '../operations/types.js'
import { accessOperation, docAccessOperation } from '../operations/access.js'
import { forgotPasswordOperation } from '../operations/forgot-password.js'
import { initOperation } from '../operations/init.js'
import { loginOperation } from '../operations/login.js'
import { logoutOperation } from '../operations/logout.js'
import { meOperation } from '../operations/me.js'
import { refreshOperation } from '../operations/refresh.js'
import { resetPasswordOperation } from '../operations/reset-password.js'
import { unlockOperation } from '../operations/unlock.js'
import { verifyEmailOperation } from '../operations/verify-email.js'
import { expiredCookie, tokenCookie } from '../rest/cookies.js'
import { expandEntity } from './expand-permissions.js'
import { formatName, singularName } from './names.js'
import { policyType, userType } from './types.js'

export interface GraphQLContext {
  auth: AuthService
  req: OperationRequest
  /** Response headers the resolvers set (`set-cookie`). */
  headers: Record<string, string>
}

type Fields = GraphQLFieldConfigMap<unknown, GraphQLContext>
type Args = Record<string, unknown>

const operationsOf = (c: AuthCollection) => ['create', 'read', 'update', 'delete', ...(c.auth.maxLoginAttempts > 0 ? ['unlock'] : [])]

function collectionSchema(collection: AuthCollection, query: Fields, mutation: Fields): void {
  const label = singularName(collection.labels.singular)
  const slugName = formatName(collection.slug)
  const user = userType(collection)
  const base = (ctx: GraphQLContext) => ({ auth: ctx.auth, collection, req: ctx.req })
  const fieldNames = collection.fields.filter((f) => !f.hidden).map((f) => f.name)

  query[`me${label}`] = {
    type: new GraphQLObjectType({
      name: `${slugName}Me`,
      fields: { collection: { type: GraphQLString }, exp: { type: GraphQLInt }, strategy: { type: GraphQLString }, token: { type: GraphQLString }, user: { type: user } },
    }),
    resolve: (_, __, ctx) => meOperation(base(ctx)),
  }
  query[`initialized${label}`] = { type: GraphQLBoolean, resolve: (_, __, ctx) => initOperation(base(ctx)) }
  query[`docAccess${label}`] = {
    type: policyType(collection.slug, operationsOf(collection), collection.fields, 'DocAccess'),
    args: { id: { type: new GraphQLNonNull(GraphQLString) } },
    resolve: async (_, args: Args, ctx) => expandEntity(await docAccessOperation({ ...base(ctx), id: String(args.id) }), operationsOf(collection), fieldNames),
  }

  mutation[`login${label}`] = {
    type: new GraphQLObjectType({ name: `${slugName}LoginResult`, fields: { exp: { type: GraphQLInt }, token: { type: GraphQLString }, user: { type: user } } }),
    args: { email: { type: GraphQLString }, password: { type: GraphQLString } },
    resolve: async (_, args: Args, ctx) => {
      const result = await loginOperation({ ...base(ctx), data: { email: args.email, password: args.password } })
      ctx.headers['set-cookie'] = tokenCookie(ctx.auth, collection, result.token)
      return result
    },
  }
  mutation[`logout${label}`] = {
    type: GraphQLString,
    args: { allSessions: { type: GraphQLBoolean } },
    resolve: async (_, args: Args, ctx) => {
      const result = await logoutOperation({ ...base(ctx), allSessions: args.allSessions === true })
      ctx.headers['set-cookie'] = expiredCookie(ctx.auth, collection)
      return result
    },
  }
  mutation[`refreshToken${label}`] = {
    type: new GraphQLObjectType({
      name: `${slugName}Refreshed${label}`,
      fields: { exp: { type: GraphQLInt }, refreshedToken: { type: GraphQLString }, strategy: { type: GraphQLString }, user: { type: user } },
    }),
    resolve: async (_, __, ctx) => {
      const result = await refreshOperation(base(ctx))
      ctx.headers['set-cookie'] = tokenCookie(ctx.auth, collection, result.refreshedToken)
      return result
    },
  }
  if (collection.auth.verify) {
    mutation[`verifyEmail${label}`] = {
      type: GraphQLBoolean,
      args: { token: { type: GraphQLString } },
      resolve: (_, args: Args, ctx) => verifyEmailOperation({ ...base(ctx), token: args.token }),
    }
  }
  if (collection.auth.maxLoginAttempts > 0) {
    mutation[`unlock${label}`] = {
      type: new GraphQLNonNull(GraphQLBoolean),
      args: { email: { type: new GraphQLNonNull(GraphQLString) } },
      resolve: async (_, args: Args, ctx) => Boolean(await unlockOperation({ ...base(ctx), data: { email: args.email } })),
    }
  }
  mutation[`forgotPassword${label}`] = {
    type: new GraphQLNonNull(GraphQLBoolean),
    args: { email: { type: new GraphQLNonNull(GraphQLString) }, disableEmail: { type: GraphQLBoolean }, expiration: { type: GraphQLInt } },
    resolve: async (_, args: Args, ctx) => {
      await forgotPasswordOperation({ ...base(ctx), data: { email: args.email }, disableEmail: args.disableEmail === true, expiration: typeof args.expiration === 'number' ? args.expiration : undefined })
      return true
    },
  }
  mutation[`resetPassword${label}`] = {
    type: new GraphQLObjectType({ name: `${slugName}ResetPassword`, fields: { token: { type: GraphQLString }, user: { type: user } } }),
    args: { password: { type: GraphQLString }, token: { type: GraphQLString } },
    resolve: async (_, args: Args, ctx) => {
      const result = await resetPasswordOperation({ ...base(ctx), data: { token: args.token ?? '', password: args.password ?? '' } })
      ctx.headers['set-cookie'] = tokenCookie(ctx.auth, collection, result.token)
      return result
    },
  }
}

function accessQuery(auth: AuthService): Fields[string] {
  const entries: Fields = { canAccessAdmin: { type: new GraphQLNonNull(GraphQLBoolean) } }
  const shapes: { key: string; slug: string; kind: 'collections' | 'globals'; operations: string[]; fields: string[] }[] = []
  for (const c of auth.collections) {
    const key = formatName(c.slug)
    entries[key] = { type: policyType(c.slug, operationsOf(c), c.fields, 'Access') }
    shapes.push({ key, slug: c.slug, kind: 'collections', operations: operationsOf(c), fields: c.fields.filter((f) => !f.hidden).map((f) => f.name) })
  }
  for (const g of auth.config.globals) {
    const key = formatName(g.slug)
    entries[key] = { type: policyType(g.slug, ['read', 'update'], g.fields, 'Access') }
    shapes.push({ key, slug: g.slug, kind: 'globals', operations: ['read', 'update'], fields: g.fields.filter((f) => !f.hidden).map((f) => f.name) })
  }
  return {
    type: new GraphQLObjectType({ name: 'Access', fields: entries }),
    resolve: async (_, __, ctx: GraphQLContext) => {
      const sanitized = await accessOperation({ auth: ctx.auth, req: ctx.req })
      const out: Record<string, unknown> = { canAccessAdmin: sanitized.canAccessAdmin === true }
      for (const s of shapes) out[s.key] = expandEntity(sanitized[s.kind]?.[s.slug], s.operations, s.fields)
      return out
    },
  }
}

export function buildSchema(auth: AuthService): GraphQLSchema {
  const query: Fields = { Access: accessQuery(auth) }
  const mutation: Fields = {}
  for (const collection of auth.collections) collectionSchema(collection, query, mutation)
  return new GraphQLSchema({
    query: new GraphQLObjectType({ name: 'Query', fields: query }),
    mutation: new GraphQLObjectType({ name: 'Mutation', fields: mutation }),
  })
}

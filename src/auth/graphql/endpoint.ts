/**
 * `POST /api/graphql`: parse, validate and execute one GraphQL request against area A's schema. Errors are
 * shaped as Payload's: `{message, locations, path, extensions: {name, data, statusCode}}`, with a 500's message
 * replaced by "Something went wrong.". Execution answers 200 (errors included); a request that is not a valid
 * GraphQL document answers 400.
 */
import { GraphQLError, parse, validate, execute, type DocumentNode, type GraphQLSchema } from 'graphql'
import type { Response } from '../../http/types.js'
import { APIError } from '../errors.js'
import { MESSAGES } from '../messages.js'
import type { AuthService } from '../service.js'
import type { EndpointContext } from '../rest/endpoints.js'
import { buildSchema, type GraphQLContext } from './schema.js'

const schemas = new WeakMap<AuthService, GraphQLSchema>()

function schemaOf(auth: AuthService): GraphQLSchema {
  let schema = schemas.get(auth)
  if (!schema) schemas.set(auth, (schema = buildSchema(auth)))
  return schema
}

export function formatGraphQLError(err: GraphQLError, auth: AuthService): Record<string, unknown> {
  const original = err.originalError
  // Errors before execution (syntax, validation) carry no original error: they are the request's fault.
  const status = original instanceof APIError ? original.status : original ? 500 : 400
  if (status >= 500 && original) auth.log.error(`graphql ${err.path?.join('.') ?? ''}: ${original.stack ?? original.message}`)
  const masked = status >= 500
  return {
    message: masked ? MESSAGES.somethingWentWrong : err.message,
    locations: err.locations,
    path: err.path,
    extensions: {
      name: masked ? undefined : original?.name,
      data: !masked && original instanceof APIError && original.data !== null ? original.data : undefined,
      statusCode: status,
    },
  }
}

function reply(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return { status, headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) }
}

export async function graphqlEndpoint({ auth, req, data }: EndpointContext): Promise<Response> {
  const body = await data()
  if (typeof body.query !== 'string' || body.query === '') return reply(400, { errors: [{ message: 'Missing query' }] })
  const variables = typeof body.variables === 'object' && body.variables !== null ? (body.variables as Record<string, unknown>) : undefined
  const schema = schemaOf(auth)
  let document: DocumentNode
  try {
    document = parse(body.query)
  } catch (err) {
    return reply(400, { errors: [formatGraphQLError(err as GraphQLError, auth)] })
  }
  const invalid = validate(schema, document)
  if (invalid.length > 0) return reply(400, { errors: invalid.map((e) => formatGraphQLError(e, auth)) })
  const context: GraphQLContext = { auth, req, headers: {} }
  const result = await execute({
    schema, document, contextValue: context, variableValues: variables,
    operationName: typeof body.operationName === 'string' ? body.operationName : undefined,
  })
  const out: Record<string, unknown> = {}
  if (result.errors) out.errors = result.errors.map((e) => formatGraphQLError(e, auth))
  out.data = result.data ?? null
  return reply(200, out, context.headers)
}

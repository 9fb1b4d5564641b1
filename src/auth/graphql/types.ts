/**
 * GraphQL object types of area A: the user type of each collection (its readable fields) and the permission
 * types of `Access` and `docAccess<Label>` (Payload's `buildPoliciesType`), whose operations are
 * `{permission: Boolean!, where: JSON}`.
 */
import { GraphQLBoolean, GraphQLFloat, GraphQLList, GraphQLNonNull, GraphQLObjectType, GraphQLScalarType, GraphQLString, type GraphQLFieldConfigMap, type GraphQLOutputType } from 'graphql'
import type { AuthField } from '../fields.js'
import type { AuthCollection } from '../service.js'
import { formatName, singularName, toWords } from './names.js'

/** Any JSON value, passed through (custom fields of unknown type, `where` constraints). */
export const JSONScalar = new GraphQLScalarType({
  name: 'JSON',
  serialize: (value) => value,
  parseValue: (value) => value,
})

function fieldType(type: string): GraphQLOutputType {
  switch (type) {
    case 'number': return GraphQLFloat
    case 'checkbox': return GraphQLBoolean
    case 'text': case 'textarea': case 'email': case 'date': case 'select': case 'radio': case 'code': return GraphQLString
    default: return JSONScalar
  }
}

export function userType(collection: AuthCollection): GraphQLObjectType {
  const name = singularName(collection.labels.singular)
  return new GraphQLObjectType({
    name,
    fields: () => {
      const fields: GraphQLFieldConfigMap<Record<string, unknown>, unknown> = { id: { type: new GraphQLNonNull(GraphQLString) } }
      for (const field of collection.fields) {
        if (field.hidden || field.name in fields) continue
        if (field.name === 'email') fields.email = { type: new GraphQLNonNull(GraphQLString) }
        else if (field.name === 'sessions') fields.sessions = { type: new GraphQLList(new GraphQLNonNull(sessionType(name))) }
        else fields[formatName(field.name)] = { type: fieldType(field.type), resolve: (doc) => doc[field.name] }
      }
      return fields
    },
  })
}

function sessionType(owner: string): GraphQLObjectType {
  return new GraphQLObjectType({
    name: `${owner}_Sessions`,
    fields: { id: { type: new GraphQLNonNull(GraphQLString) }, createdAt: { type: GraphQLString }, expiresAt: { type: new GraphQLNonNull(GraphQLString) } },
  })
}

const FIELD_OPERATIONS = ['create', 'read', 'update'] as const

function fieldsPolicyType(typeName: string, fields: { name: string; hidden?: boolean }[]): GraphQLObjectType | null {
  const visible = fields.filter((f) => !f.hidden)
  if (visible.length === 0) return null
  return new GraphQLObjectType({
    name: typeName,
    fields: Object.fromEntries(visible.map((field) => {
      const fieldName = formatName(field.name)
      return [fieldName, {
        type: new GraphQLObjectType({
          name: `${typeName}_${fieldName}`,
          fields: Object.fromEntries(FIELD_OPERATIONS.map((op) => [op, {
            type: new GraphQLObjectType({ name: `${typeName}_${fieldName}_${op.charAt(0).toUpperCase()}${op.slice(1)}`, fields: { permission: { type: new GraphQLNonNull(GraphQLBoolean) } } }),
          }])),
        }),
        resolve: (parent: Record<string, unknown>) => parent[field.name],
      }]
    })),
  })
}

/** The permission type of a collection or global (`usersAccess`, `usersDocAccess`, ...). */
export function policyType(slug: string, operations: string[], fields: (AuthField | { name: string; hidden?: boolean })[], scope: 'Access' | 'DocAccess'): GraphQLObjectType {
  const scopeWord = scope === 'Access' ? '' : 'docAccess'
  const entries: GraphQLFieldConfigMap<unknown, unknown> = {}
  const fieldsType = fieldsPolicyType(toWords(`${slug}-${scopeWord}-Fields`), fields)
  if (fieldsType) entries.fields = { type: fieldsType }
  for (const operation of operations) {
    entries[operation] = {
      type: new GraphQLObjectType({
        name: toWords(`${slug}-${operation}-${scopeWord || 'Access'}`),
        fields: { permission: { type: new GraphQLNonNull(GraphQLBoolean) }, where: { type: JSONScalar } },
      }),
    }
  }
  return new GraphQLObjectType({ name: formatName(`${slug}${scope}`), fields: entries })
}

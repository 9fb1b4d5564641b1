/** Fill in the defaults of an `AuthConfig` (Payload's values) and reject shapes the service cannot serve. */
import type {
  AccessArgs, AuthConfig, AuthOptions, CollectionConfig, FieldConfig, GlobalConfig, SanitizedAuthConfig,
  SanitizedAuthOptions, SanitizedCollection, SanitizedGlobal,
} from './types.js'

export class AuthConfigError extends Error {}

/**
 * Used when no secret is configured outside production. Fixed rather than random so that tokens survive a
 * restart in development; the service warns loudly at start (see `createAuthService`).
 */
export const DEVELOPMENT_SECRET = 'tessera-development-secret: not for production'

/** The collection served when no config file is given. */
export const DEFAULT_COLLECTION: CollectionConfig = { slug: 'users', labels: { singular: 'User', plural: 'Users' }, auth: true }

/** Payload's `defaultAccess`: anyone logged in. */
const loggedIn = ({ req }: AccessArgs): boolean => req.user !== null

const SLUG = /^[A-Za-z][A-Za-z0-9_-]*$/
const RESERVED_SLUGS = new Set(['access', 'graphql', 'globals'])

export function sanitizeAuthConfig(config: AuthConfig, env: 'development' | 'production'): SanitizedAuthConfig {
  if (typeof config !== 'object' || config === null) throw new AuthConfigError('the config must export an object')
  const secret = config.secret
  if (secret !== undefined && (typeof secret !== 'string' || secret === '')) throw new AuthConfigError('`secret` must be a non-empty string')
  if (secret === undefined && env === 'production') {
    throw new AuthConfigError('in production (--env production) the auth config needs a `secret`: pass --config with a file that sets one')
  }
  const collectionsIn = config.collections ?? [DEFAULT_COLLECTION]
  if (!Array.isArray(collectionsIn) || collectionsIn.length === 0) throw new AuthConfigError('`collections` must be a non-empty array')
  const adminCollection = String(collectionsIn[0]?.slug)
  const collections = collectionsIn.map((c) => sanitizeCollection(c, adminCollection))
  const globals = (config.globals ?? []).map(sanitizeGlobal)
  const slugs = [...collections.map((c) => c.slug), ...globals.map((g) => g.slug)]
  const duplicate = slugs.find((s, i) => slugs.indexOf(s) !== i)
  if (duplicate !== undefined) throw new AuthConfigError(`the slug \`${duplicate}\` is used twice`)
  if (config.email !== undefined) {
    const { smtp, fromName, fromAddress } = config.email ?? {}
    if (typeof smtp !== 'string' || !/^smtps?:\/\//.test(smtp)) throw new AuthConfigError('`email.smtp` must be an smtp:// or smtps:// URL')
    if (typeof fromName !== 'string' || typeof fromAddress !== 'string') throw new AuthConfigError('`email.fromName` and `email.fromAddress` must be strings')
  }
  const serverURL = config.serverURL ? config.serverURL.replace(/\/+$/, '') : null
  return {
    secret: secret ?? DEVELOPMENT_SECRET,
    developmentSecret: secret === undefined,
    serverURL,
    cookiePrefix: config.cookiePrefix ?? 'tessera',
    email: config.email ?? null,
    collections,
    globals,
    adminCollection,
    csrf: serverURL ? [serverURL] : [],
  }
}

function sanitizeCollection(input: CollectionConfig, adminCollection: string): SanitizedCollection {
  if (typeof input?.slug !== 'string' || !SLUG.test(input.slug) || RESERVED_SLUGS.has(input.slug)) {
    throw new AuthConfigError(`invalid collection slug \`${String(input?.slug)}\`: letters, digits, - and _, starting with a letter (not access, graphql or globals)`)
  }
  if (input.auth === undefined || input.auth === null || (input.auth as unknown) === false) {
    throw new AuthConfigError(`collection \`${input.slug}\`: only auth collections are served here (set \`auth: true\`)`)
  }
  const labels = {
    singular: input.labels?.singular ?? singularOf(input.slug),
    plural: input.labels?.plural ?? capitalize(input.slug),
  }
  const access = input.access ?? {}
  return {
    slug: input.slug,
    labels,
    auth: sanitizeAuth(input.slug, input.auth === true ? {} : input.auth),
    access: {
      create: access.create ?? loggedIn,
      read: access.read ?? loggedIn,
      update: access.update ?? loggedIn,
      delete: access.delete ?? loggedIn,
      // Payload's `defaultUnlockAccess`: a logged-in user of the admin collection.
      unlock: access.unlock ?? (({ req }) => req.user !== null && req.user.collection === adminCollection),
      admin: access.admin,
    },
    fields: sanitizeFields(input.slug, input.fields ?? []),
  }
}

function sanitizeAuth(slug: string, auth: AuthOptions): SanitizedAuthOptions {
  const number = (name: string, value: unknown, fallback: number): number => {
    if (value === undefined) return fallback
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) throw new AuthConfigError(`collection \`${slug}\`: \`auth.${name}\` must be a number from 0`)
    return value
  }
  const sameSite = auth.cookies?.sameSite
  return {
    tokenExpiration: number('tokenExpiration', auth.tokenExpiration, 7200),
    verify: auth.verify === true ? {} : auth.verify ? auth.verify : false,
    maxLoginAttempts: number('maxLoginAttempts', auth.maxLoginAttempts, 5),
    lockTime: number('lockTime', auth.lockTime, 600000),
    useAPIKey: auth.useAPIKey === true,
    useSessions: auth.useSessions !== false,
    // Payload: a string is used as is, `true` means Strict, anything else sends no SameSite.
    cookies: {
      sameSite: typeof sameSite === 'string' ? sameSite : sameSite === true ? 'Strict' : sameSite === false ? undefined : 'Lax',
      secure: auth.cookies?.secure === true,
      domain: auth.cookies?.domain,
    },
    forgotPassword: { ...auth.forgotPassword, expiration: auth.forgotPassword?.expiration },
  }
}

/** Names the auth collections already use for their own fields. */
const BASE_FIELD_NAMES = new Set([
  'id', 'email', 'password', 'createdAt', 'updatedAt', 'hash', 'salt', 'resetPasswordToken', 'resetPasswordExpiration',
  '_verified', '_verificationToken', 'loginAttempts', 'lockUntil', 'sessions', 'enableAPIKey', 'apiKey', 'apiKeyIndex',
  'collection', '_strategy',
])

function sanitizeFields(owner: string, fields: FieldConfig[]): FieldConfig[] {
  if (!Array.isArray(fields)) throw new AuthConfigError(`\`${owner}\`: \`fields\` must be an array`)
  for (const field of fields) {
    if (typeof field?.name !== 'string' || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(field.name)) throw new AuthConfigError(`\`${owner}\`: invalid field name \`${String(field?.name)}\``)
    if (BASE_FIELD_NAMES.has(field.name)) throw new AuthConfigError(`\`${owner}\`: the field name \`${field.name}\` is reserved for auth`)
    if (typeof field.type !== 'string') throw new AuthConfigError(`\`${owner}\`: field \`${field.name}\` needs a type`)
  }
  return fields
}

function sanitizeGlobal(input: GlobalConfig): SanitizedGlobal {
  if (typeof input?.slug !== 'string' || !SLUG.test(input.slug)) throw new AuthConfigError(`invalid global slug \`${String(input?.slug)}\``)
  return {
    slug: input.slug,
    access: { read: input.access?.read ?? loggedIn, update: input.access?.update ?? loggedIn },
    fields: sanitizeFields(input.slug, input.fields ?? []),
  }
}

const capitalize = (s: string) => s.charAt(0).toUpperCase() + s.slice(1)

function singularOf(slug: string): string {
  const word = capitalize(slug)
  if (/ies$/.test(word)) return word.slice(0, -3) + 'y'
  if (/ss$/.test(word)) return word
  return word.replace(/s$/, '')
}

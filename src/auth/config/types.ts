/**
 * The auth configuration: what a `--config` module exports (`AuthConfig`), and the same with every default
 * filled in (`SanitizedAuthConfig`), which is all the rest of `src/auth/` reads. The shape follows Payload 3's
 * collection config, reduced to what auth collections need.
 */

/** A Payload `Where`: field conditions (`{email: {equals: 'a@b.c'}}`) combined with `and` / `or`. */
export type Where = { and?: Where[]; or?: Where[] } & { [field: string]: WhereCondition | Where[] | undefined }

export interface WhereCondition {
  equals?: unknown
  not_equals?: unknown
  in?: unknown[]
  not_in?: unknown[]
  exists?: boolean
  greater_than?: unknown
  greater_than_equal?: unknown
  less_than?: unknown
  less_than_equal?: unknown
  like?: string
  contains?: string
}

/** What an access function answers: allow, deny, or allow only the documents matching a `Where`. */
export type AccessResult = boolean | Where

/** The user an access function sees: the public user document plus its collection. */
export interface AccessUser {
  id: string
  collection: string
  email: string
  [field: string]: unknown
}

export interface AccessArgs {
  req: { user: AccessUser | null }
  /** The document concerned, when the check is for one document (doc access, update, read by id). */
  id?: string
  /** The incoming data, for create and update. */
  data?: Record<string, unknown>
}

export type AccessFunction = (args: AccessArgs) => AccessResult | Promise<AccessResult>

export interface CollectionAccess {
  create?: AccessFunction
  read?: AccessFunction
  update?: AccessFunction
  delete?: AccessFunction
  /** Who may unlock a locked user. Default: a logged-in user of the admin collection (the first one). */
  unlock?: AccessFunction
  /** Who may use the admin panel (`canAccessAdmin`). Default: any logged-in user of the admin collection. */
  admin?: (args: AccessArgs) => boolean | Promise<boolean>
}

/** A custom field of a user document. */
export interface FieldConfig {
  name: string
  /** Payload field type (`text`, `number`, `checkbox`, `email`, `date`, `json`, `select`, ...). */
  type: string
  /** Copy the value into the JWT: `true` under the field's name, a string to rename the claim. */
  saveToJWT?: boolean | string
  /** Never returned unless `showHiddenFields` (local API). */
  hidden?: boolean
  required?: boolean
}

export interface EmailTemplateArgs {
  /** The verification or reset token. */
  token: string
  /** The user document (public fields). */
  user: Record<string, unknown>
  /** `${protocol}//${host}` of the request that caused the mail, when there was one. */
  requestOrigin: string | null
}

export interface EmailTemplates {
  generateEmailHTML?: (args: EmailTemplateArgs) => string | Promise<string>
  generateEmailSubject?: (args: EmailTemplateArgs) => string | Promise<string>
}

export interface AuthOptions {
  /** Seconds a JWT (and its session) lives. Default 7200. */
  tokenExpiration?: number
  /** Require email verification before login; an object also overrides the verification email. Default false. */
  verify?: boolean | EmailTemplates
  /** Failed logins before the user is locked; 0 disables locking. Default 5. */
  maxLoginAttempts?: number
  /** Milliseconds a lock lasts. Default 600000. */
  lockTime?: number
  /** Per-user API keys (`Authorization: <slug> API-Key <key>`). Default false. */
  useAPIKey?: boolean
  /** Server-side sessions: a token is valid only while its `sid` is. Default true. */
  useSessions?: boolean
  cookies?: { sameSite?: 'Lax' | 'Strict' | 'None' | boolean; secure?: boolean; domain?: string }
  /** `expiration` in milliseconds; when set it wins over the local API's `expiration` argument (as in Payload). */
  forgotPassword?: EmailTemplates & { expiration?: number }
}

export interface CollectionConfig {
  slug: string
  labels?: { singular?: string; plural?: string }
  auth: true | AuthOptions
  access?: CollectionAccess
  fields?: FieldConfig[]
}

/** A global (a single document): only its access is served here (`/api/globals/{slug}/access`). */
export interface GlobalConfig {
  slug: string
  access?: { read?: AccessFunction; update?: AccessFunction }
  fields?: FieldConfig[]
}

export interface AuthConfig {
  /** Signs JWTs and encrypts API keys. Required in production. */
  secret?: string
  /** Public address of the service; email links start with it (else with the request's host). */
  serverURL?: string
  /** Cookie name prefix: the token cookie is `<prefix>-token`. Default `tessera`. */
  cookiePrefix?: string
  email?: { smtp: string; fromName: string; fromAddress: string }
  collections?: CollectionConfig[]
  globals?: GlobalConfig[]
}

export interface SanitizedAuthOptions {
  tokenExpiration: number
  verify: false | EmailTemplates
  maxLoginAttempts: number
  lockTime: number
  useAPIKey: boolean
  useSessions: boolean
  cookies: { sameSite: 'Lax' | 'Strict' | 'None' | undefined; secure: boolean; domain: string | undefined }
  forgotPassword: EmailTemplates & { expiration: number | undefined }
}

export interface SanitizedCollection {
  slug: string
  labels: { singular: string; plural: string }
  auth: SanitizedAuthOptions
  access: Required<Omit<CollectionAccess, 'admin'>> & Pick<CollectionAccess, 'admin'>
  fields: FieldConfig[]
}

export interface SanitizedGlobal {
  slug: string
  access: { read: AccessFunction; update: AccessFunction }
  fields: FieldConfig[]
}

export interface SanitizedAuthConfig {
  secret: string
  /** True when no secret was configured and the development one is in use. */
  developmentSecret: boolean
  serverURL: string | null
  cookiePrefix: string
  email: { smtp: string; fromName: string; fromAddress: string } | null
  collections: SanitizedCollection[]
  globals: SanitizedGlobal[]
  /** The collection whose users may use the admin panel (Payload's `admin.user`): the first one. */
  adminCollection: string
  /** Origins whose cookies are trusted (Payload's `csrf`, which it fills from `serverURL`). */
  csrf: string[]
}

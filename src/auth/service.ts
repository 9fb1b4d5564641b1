/**
 * The auth service: the sanitized config, the users in the shared `Store`, the token signer and the mailer —
 * everything an operation needs, created once by the server (on `engine.store`) or by the local API (on a
 * `Store` of its own). Operations take it as `auth`; transports only pass it along.
 */
import { createHmac } from 'node:crypto'
import type { Store } from '../../engine/storage/index.js'
import type { AccessUser, AuthConfig, FieldConfig, SanitizedAuthConfig, SanitizedCollection } from './config/types.js'
import { DEFAULT_COLLECTION, sanitizeAuthConfig } from './config/sanitize.js'
import { loadAuthConfigFile } from './config/load.js'
import { TokenSigner, deriveSecret } from './crypto/jwt.js'
import { Mailer } from './email/mailer.js'
import { collectionFields, type AuthField } from './fields.js'
import { authenticate } from './strategies/authenticate.js'
import { UserStore } from './store/users.js'
import { KeyedMutex } from './store/mutex.js'

export interface AuthLogger {
  info(msg: string): void
  warn(msg: string): void
  error(msg: string): void
}

/** An auth collection with its full field list (custom fields and the auth fields its options add). */
export interface AuthCollection extends SanitizedCollection {
  fields: AuthField[]
  customFields: FieldConfig[]
}

/** The authenticated user of a request (Payload's `req.user`). */
export interface AuthUser extends AccessUser {
  _strategy: 'local-jwt' | 'api-key'
  /** The session of the token, when sessions are on. */
  _sid?: string
}

export interface AuthServiceOptions {
  config: SanitizedAuthConfig
  store: Store
  log: AuthLogger
  /** Largest request body the REST and GraphQL endpoints read. */
  bodyLimit?: number
}

export class AuthService {
  readonly config: SanitizedAuthConfig
  readonly users: UserStore
  /** Payload's `payload.secret`: the JWT key, and the key of API-key encryption and indexing. */
  readonly secret: string
  readonly tokens: TokenSigner
  readonly mailer: Mailer
  readonly log: AuthLogger
  readonly bodyLimit: number
  readonly collections: AuthCollection[]
  /** First-user registration runs one at a time per collection, so two racing requests cannot both be first. */
  readonly firstUserLock = new KeyedMutex()
  private readonly bySlug: Map<string, AuthCollection>

  constructor(options: AuthServiceOptions) {
    this.config = options.config
    this.users = new UserStore(options.store)
    this.secret = deriveSecret(options.config.secret)
    this.tokens = new TokenSigner(this.secret)
    this.log = options.log
    this.mailer = new Mailer(options.config.email, options.log)
    this.bodyLimit = options.bodyLimit ?? 10 * 1024 * 1024
    this.collections = options.config.collections.map((c) => ({ ...c, fields: collectionFields(c), customFields: c.fields }))
    this.bySlug = new Map(this.collections.map((c) => [c.slug, c]))
  }

  collection(slug: string): AuthCollection | undefined {
    return this.bySlug.get(slug)
  }

  /** The user a request's headers authenticate (JWT, Bearer, cookie, API key), or null. */
  authenticate(headers: Map<string, string>): AuthUser | null {
    return authenticate(this, headers)
  }

  close(): void {
    this.mailer.close()
  }
}

/**
 * The server's auth config: `configPath` (or the default `users` collection), sanitized for `env`. Loaded before
 * the engine opens, so a bad config stops the start cleanly. A config without a secret signs with one derived from
 * the master key when there is one (so `--env production --master-key ...` starts without a config file, and a new
 * master key ends every session, as it changes every API key); with neither it warns loudly (development) or
 * refuses (production, in sanitize).
 */
export async function loadAuthConfig(options: { configPath: string | null; env: 'development' | 'production'; masterKey: string | null; log: AuthLogger }): Promise<SanitizedAuthConfig> {
  const raw: AuthConfig = options.configPath ? await loadAuthConfigFile(options.configPath) : { collections: [DEFAULT_COLLECTION] }
  const withSecret = raw.secret === undefined && options.masterKey !== null ? { ...raw, secret: secretFromMasterKey(options.masterKey) } : raw
  const config = sanitizeAuthConfig(withSecret, options.env)
  if (config.developmentSecret) {
    options.log.warn('*** AUTH: no secret configured: tokens are signed with a fixed DEVELOPMENT secret anyone can forge. Set `secret` in a --config file before exposing this service. ***')
  }
  return config
}

/** The auth secret a master key stands for: an HMAC under a label of its own, so it is no API key's value. */
function secretFromMasterKey(masterKey: string): string {
  return createHmac('sha256', masterKey).update('tessera auth collections secret').digest('hex')
}

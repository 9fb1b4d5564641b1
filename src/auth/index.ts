/**
 * Area A: Payload-3-style auth collections. The server loads the config (`loadAuthConfig`), creates the service on its
 * engine's `Store` and registers the routes (`authRoutes`); programs use the local API (`createTessera`).
 */
export { AuthService, loadAuthConfig, type AuthCollection, type AuthLogger, type AuthUser } from './service.js'
export { handleApiRequest } from './rest/routes.js'
export { authRoutes } from './rest/api-routes.js'
export { createTessera, type Tessera, type TesseraOptions, type CookieSink } from './local.js'
export { AuthConfigError } from './config/sanitize.js'
export type { AuthConfig, CollectionConfig, AccessFunction, Where } from './config/types.js'
export { APIError, AuthenticationError, Forbidden, LockedAuth, NotFound, UnverifiedEmail, ValidationError } from './errors.js'

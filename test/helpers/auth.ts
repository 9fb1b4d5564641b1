/** Area A test helpers: an AuthService on a real Store in a temp dir, and config files for the real server. */
import type { Test } from 'tap'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Store } from '../../engine/storage/index.js'
import { AuthService } from '../../src/auth/service.js'
import { sanitizeAuthConfig } from '../../src/auth/config/sanitize.js'
import type { AuthConfig } from '../../src/auth/config/types.js'
import type { OperationArgs, OperationRequest } from '../../src/auth/operations/types.js'

export interface AuthHarness {
  auth: AuthService
  store: Store
  logs: string[]
  /** Operation arguments for a collection, as nobody (or as the user of `token`). */
  args(slug?: string, token?: string): OperationArgs
}

export const SECRET = 'test-secret-for-area-a'

export async function authHarness(t: { teardown(fn: () => unknown): void }, config: AuthConfig = {}): Promise<AuthHarness> {
  const dir = mkdtempSync(join(tmpdir(), 'tessera-auth-'))
  const store = await Store.open(dir)
  const logs: string[] = []
  const log = { info: (m: string) => logs.push(`INFO ${m}`), warn: (m: string) => logs.push(`WARN ${m}`), error: (m: string) => logs.push(`ERROR ${m}`) }
  const auth = new AuthService({ config: sanitizeAuthConfig({ secret: SECRET, ...config }, 'development'), store, log })
  t.teardown(async () => {
    auth.close()
    await store.close()
    rmSync(dir, { recursive: true, force: true })
  })
  return {
    auth, store, logs,
    args(slug = auth.collections[0]!.slug, token?: string) {
      const req: OperationRequest = token
        ? { user: auth.authenticate(new Map([['authorization', `JWT ${token}`]])), token, origin: null }
        : { user: null, token: null, origin: null }
      return { auth, collection: auth.collection(slug)!, req }
    },
  }
}

/** Write a config module for `--config` into a temp dir; removed at teardown. */
export function configFile(t: { teardown(fn: () => unknown): void }, source: string, ext = '.mjs'): string {
  const dir = mkdtempSync(join(tmpdir(), 'tessera-auth-config-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  const path = join(dir, `config${ext}`)
  writeFileSync(path, source)
  return path
}

/** The claims of a JWT, unchecked. */
export function claimsOf(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8'))
}

/** Expect a promise to reject with an APIError of this class name, status and message. */
export async function rejectsWith(t: Test, p: Promise<unknown>, name: string, status: number, message: string | RegExp): Promise<void> {
  await t.rejects(p, { name, status, message }, `${name} ${status}`)
}

/** Start the real server with this auth config module (stopped and cleaned up at teardown). */
export async function authServer(t: Test, configSource: string, options: { env?: Record<string, string>; dbPath?: string; ext?: string } = {}) {
  const { serverFor } = await import('./server.js')
  const config = configFile(t, configSource, options.ext ?? '.mjs')
  return serverFor(t, { args: ['--config', config], env: options.env, dbPath: options.dbPath })
}

/** The attributes of a Set-Cookie header, by lower-case name (the first pair is `name=value`). */
export function cookieParts(header: string | null): { name: string; value: string; attributes: Record<string, string | true> } {
  const [pair = '', ...rest] = (header ?? '').split('; ')
  const eq = pair.indexOf('=')
  const attributes: Record<string, string | true> = {}
  for (const part of rest) {
    const i = part.indexOf('=')
    attributes[(i < 0 ? part : part.slice(0, i)).toLowerCase()] = i < 0 ? true : part.slice(i + 1)
  }
  return { name: pair.slice(0, eq), value: pair.slice(eq + 1), attributes }
}

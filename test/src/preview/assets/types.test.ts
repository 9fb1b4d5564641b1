/**
 * The preview's browser modules are plain JS with JSDoc types (the build compiles only Node's TypeScript); this
 * type-checks them as TypeScript would, against the DOM's types (src/preview/assets/tsconfig.json).
 */
import t from 'tap'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { ASSETS_DIR } from '../../../../src/preview/index.js'
import { nodeSync } from '../../../helpers/server.js'

t.test('the browser modules type-check (strict, DOM)', async (t) => {
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc')
  const res = nodeSync([tsc, '-p', join(ASSETS_DIR, 'tsconfig.json')], { timeout: 110_000 })
  t.equal(res.status, 0, res.stdout + res.stderr)
})

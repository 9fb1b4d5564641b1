/**
 * Load the `--config` module: `.json` is parsed, `.js` / `.mjs` are imported, and `.ts` is compiled first.
 * Node 20 cannot import TypeScript, so a `.ts` config is transpiled (types stripped, no type check) with the
 * installed `typescript` to a temporary `.mjs` beside it — beside it so that its relative imports of `.js`/`.mjs`
 * modules still resolve — imported, and removed again.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs'
import { basename, dirname, extname, join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { randomBytes } from 'node:crypto'
import { AuthConfigError } from './sanitize.js'
import type { AuthConfig } from './types.js'

export async function loadAuthConfigFile(path: string): Promise<AuthConfig> {
  const file = resolve(path)
  const ext = extname(file).toLowerCase()
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch (err) {
    throw new AuthConfigError(`cannot read the config file \`${path}\`: ${(err as Error).message}`)
  }
  if (ext === '.json') {
    try {
      return JSON.parse(text) as AuthConfig
    } catch (err) {
      throw new AuthConfigError(`the config file \`${path}\` is not valid JSON: ${(err as Error).message}`)
    }
  }
  if (ext === '.js' || ext === '.mjs') return defaultExport(await importModule(pathToFileURL(file).href, path), path)
  if (ext === '.ts') return defaultExport(await importTypeScript(file, text, path), path)
  throw new AuthConfigError(`unsupported config file \`${path}\`: expected .js, .mjs, .ts or .json`)
}

async function importTypeScript(file: string, source: string, shown: string): Promise<unknown> {
  const ts = (await import('typescript')).default
  const out = ts.transpileModule(source, {
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, verbatimModuleSyntax: false },
    fileName: basename(file),
  })
  const compiled = join(dirname(file), `.${basename(file, '.ts')}.${randomBytes(6).toString('hex')}.mjs`)
  try {
    writeFileSync(compiled, out.outputText)
  } catch (err) {
    throw new AuthConfigError(`cannot compile the config file \`${shown}\` (its folder must be writable): ${(err as Error).message}`)
  }
  try {
    return await importModule(pathToFileURL(compiled).href, shown)
  } finally {
    rmSync(compiled, { force: true })
  }
}

async function importModule(url: string, shown: string): Promise<unknown> {
  try {
    return await import(url)
  } catch (err) {
    throw new AuthConfigError(`cannot load the config file \`${shown}\`: ${(err as Error).message}`)
  }
}

function defaultExport(mod: unknown, shown: string): AuthConfig {
  const value = (mod as { default?: unknown }).default
  if (typeof value !== 'object' || value === null) throw new AuthConfigError(`the config file \`${shown}\` must have a default export (an object)`)
  return value as AuthConfig
}

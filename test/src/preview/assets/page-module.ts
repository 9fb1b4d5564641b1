/**
 * The preview page's modules are plain JS for the browser (typed with JSDoc and checked by types.test.ts against
 * the DOM), outside this Node program's types: a test imports one by name and declares the part it uses.
 */
import { pathToFileURL } from 'node:url'
import { join } from 'node:path'
import { ASSETS_DIR } from '../../../../src/preview/index.js'

export async function pageModule<T>(name: string): Promise<T> {
  return (await import(pathToFileURL(join(ASSETS_DIR, name)).href)) as T
}

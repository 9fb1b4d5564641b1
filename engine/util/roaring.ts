/**
 * roaring, without the cost of its loader. roaring's `index.js` finds its binary through node-pre-gyp
 * (`@mapbox/node-pre-gyp/lib/pre-binding`), which loads node-pre-gyp with nopt, semver, detect-libc and more: 60 to
 * 90 ms of CPU in every thread that loads roaring (the HTTP thread, the pool's, each search thread), for a binary
 * that loads in 2. The binary's place is fixed by roaring's package.json (`binary.module_path`:
 * `native/roaring-{node_abi}-{platform}-{arch}-{libc}`, node_abi `node-v115` on Node 20): when exactly one folder
 * there fits this Node's ABI, platform and architecture, pre-binding's `find` is answered with it from require's
 * cache, before roaring loads.
 * Otherwise (no such folder: roaring fell back to its `build/Release` binary; or several) node-pre-gyp runs as
 * before. Every module loads roaring through this one, so the answer is in place first.
 */
import { existsSync, readdirSync } from 'node:fs'
import { createRequire, Module } from 'node:module'
import { dirname, join } from 'node:path'
import type Roaring from 'roaring'

const require = createRequire(import.meta.url)

/** Answer node-pre-gyp's `find` for roaring's package.json, in this thread's require cache, when it can be. */
function answerBinaryLookup(): void {
  const packageJson = require.resolve('roaring/package.json')
  const nativeDir = join(dirname(packageJson), 'native')
  if (!existsSync(nativeDir)) return
  const prefix = `roaring-node-v${process.versions.modules}-${process.platform}-${process.arch}-`
  const fits = readdirSync(nativeDir).filter((name) => name.startsWith(prefix) && existsSync(join(nativeDir, name, 'roaring.node')))
  if (fits.length !== 1) return
  const binary = join(nativeDir, fits[0]!, 'roaring.node')
  const preBinding = createRequire(packageJson).resolve('@mapbox/node-pre-gyp/lib/pre-binding')
  if (require.cache[preBinding]) return
  const answer = new Module(preBinding)
  answer.filename = preBinding
  answer.loaded = true
  answer.exports = {
    find(path: string, opts?: unknown): string {
      if (path === packageJson) return binary
      // Another package asking: the real module from now on.
      delete require.cache[preBinding]
      return (require(preBinding) as { find(path: string, opts?: unknown): string }).find(path, opts)
    },
  }
  require.cache[preBinding] = answer
}

answerBinaryLookup()
const roaring: typeof Roaring = require('roaring')
export default roaring

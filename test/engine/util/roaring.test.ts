/**
 * engine/util/roaring.ts: roaring loads without node-pre-gyp (its binary found from roaring's package.json), its
 * bitmaps work, and node-pre-gyp's `find` still answers for any other package. In a process of its own: require's
 * cache is per process, and this one may have loaded roaring already.
 */
import t from 'tap'
import { fileURLToPath } from 'node:url'
import { nodeSync } from '../../helpers/server.js'

const wrapper = fileURLToPath(new URL('../../../engine/util/roaring.js', import.meta.url))
const script = `
import { createRequire } from 'node:module'
const { default: roaring } = await import(${JSON.stringify(wrapper)})
const require = createRequire(${JSON.stringify(wrapper)})
const loaded = () => Object.keys(require.cache).filter((k) => k.includes('node-pre-gyp')).map((k) => k.slice(k.indexOf('node-pre-gyp')))
const bitmap = new roaring.RoaringBitmap32([3, 1, 2])
const before = loaded()
const roaringJson = require.resolve('roaring/package.json')
const preBinding = createRequire(roaringJson).resolve('@mapbox/node-pre-gyp/lib/pre-binding')
// Another path (the same file, spelled otherwise): the real node-pre-gyp answers.
const other = require(preBinding).find(roaringJson.replace('/package.json', '//package.json'))
console.log(JSON.stringify({ values: bitmap.toArray(), before, other, after: loaded().length }))
`

t.test('roaring loads without node-pre-gyp and its bitmaps work', async (t) => {
  const run = nodeSync(['--input-type=module', '-e', script])
  t.equal(run.status, 0, run.stderr)
  const out = JSON.parse(run.stdout)
  t.same(out.values, [1, 2, 3])
  t.same(out.before, ['node-pre-gyp/lib/pre-binding.js'], 'only the answer in the cache: node-pre-gyp itself never loaded')
  t.match(out.other, /\/native\/roaring-node-v\d+-[^/]+\/roaring\.node$/, 'any other lookup is node-pre-gyp\'s own')
  t.ok(out.after > 5, `node-pre-gyp loaded for it (${out.after} modules)`)
})

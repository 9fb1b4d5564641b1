/** engine/util/thread-argv.ts: which of the process's Node options the engine's threads start with. */
import t from 'tap'
import { threadExecArgv } from '../../../engine/util/thread-argv.js'

const ARGV = ['--import=file:///tracker.mjs', '--enable-source-maps', '--import', './apm.mjs', '-r', 'hook.cjs',
  '--require=other.cjs', '--loader=old.mjs', '--experimental-loader', 'older.mjs', '--max-old-space-size=512']

t.test('threads inherit everything unless TESSERA_THREAD_PRELOADS=0', async (t) => {
  t.equal(threadExecArgv({}, ARGV), undefined)
  t.equal(threadExecArgv({ TESSERA_THREAD_PRELOADS: '1' }, ARGV), undefined)
})

t.test('with TESSERA_THREAD_PRELOADS=0, preloads go in both spellings and every other option stays', async (t) => {
  t.same(threadExecArgv({ TESSERA_THREAD_PRELOADS: '0' }, ARGV), ['--enable-source-maps', '--max-old-space-size=512'])
  t.same(threadExecArgv({ TESSERA_THREAD_PRELOADS: '0' }, []), [])
})

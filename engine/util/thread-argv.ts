/**
 * The Node options the engine's threads (the writer, the worker pool, the search threads) start with.
 *
 * A Worker inherits the process's whole execArgv, modules preloaded with `--import`, `--require` or `--loader`
 * included, and loads them again in each thread. That is what an instrumented process wants (an APM agent tracing
 * the embedders' requests from the pool), so it stays the default. With `TESSERA_THREAD_PRELOADS=0` the threads
 * start without the preloads and keep every other option: the test suite sets it (tap's `test-env`), because tap
 * preloads its process tracker into every test process, and in each thread that tracker and its module hooks
 * doubled the CPU an engine test used (4.5 s of CPU against 9.3 s for the task queue's tests).
 */
const PRELOADS = new Set(['--import', '--require', '-r', '--loader', '--experimental-loader'])

/** The execArgv for a new engine thread: undefined (inherit everything) unless preloads are turned off. */
export function threadExecArgv(env: NodeJS.ProcessEnv = process.env, argv: readonly string[] = process.execArgv): string[] | undefined {
  if (env.TESSERA_THREAD_PRELOADS !== '0') return undefined
  const kept: string[] = []
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!
    const equals = arg.indexOf('=')
    if (PRELOADS.has(equals < 0 ? arg : arg.slice(0, equals))) {
      if (equals < 0) i++ // `--import X`: the module is the next argument
      continue
    }
    kept.push(arg)
  }
  return kept
}

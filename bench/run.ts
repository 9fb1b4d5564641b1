/**
 * `npm run bench` / `tessera bench`: the benchmark suite (issues 2 to 6). Parses the options (harness/options.ts,
 * `--help` lists them), then loads and runs the suite (bench/suite.ts). The scenarios and their peers load only
 * after the command line is read, so `--help` and usage errors answer at once. A failed scenario makes the exit
 * code 1; a usage error, 2.
 */
import { USAGE, UsageError, parseOptions, type Options } from './harness/options.js'

async function main(): Promise<void> {
  let options: Options
  try {
    options = parseOptions(process.argv.slice(2))
  } catch (err) {
    if (err instanceof UsageError) { process.stderr.write(`error: ${err.message}\n\n${USAGE}\n`); process.exit(2) }
    throw err
  }
  const { runSuite } = await import('./suite.js')
  await runSuite(options)
}

main().catch((err) => {
  process.stderr.write(`bench failed: ${(err as Error).stack ?? err}\n`)
  process.exit(1)
})

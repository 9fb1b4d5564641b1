/** The `tessera` command. */
import { ConfigError, helpText, parseArgs } from './config.js'
import { createLogger } from './log.js'
import { VERSION } from './version.js'
import { configureThreadHeaps } from './thread-heaps.js'

async function main(): Promise<void> {
  let parsed
  try {
    parsed = parseArgs(process.argv.slice(2))
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`error: ${err.message}\n`)
      process.exit(2)
    }
    throw err
  }
  if (parsed.kind === 'help') { process.stdout.write(helpText() + '\n'); return }
  if (parsed.kind === 'version') { process.stdout.write(`tessera ${VERSION.pkgVersion}\n`); return }
  const { config } = parsed
  const log = createLogger(config.logLevel)
  configureThreadHeaps()
  // Loaded after the arguments are read: `--help`, `--version` and usage errors answer without loading the service.
  const [{ startServer }, { StartupError }] = await Promise.all([import('./server.js'), import('./data-dir.js')])
  let server
  try {
    server = await startServer(config, log)
  } catch (err) {
    if (err instanceof StartupError) {
      process.stderr.write(`error: ${err.message}\n`)
      process.exit(1)
    }
    throw err
  }
  const host = server.host.includes(':') ? `[${server.host}]` : server.host
  // Tests and scripts read this line to find the port (with --http-addr HOST:0).
  process.stdout.write(`Tessera listening on http://${host}:${server.port} (adapter ${server.adapter}, data in ${config.dbPath})\n`)
  let stopping = false
  const stop = (signal: string) => {
    if (stopping) return
    stopping = true
    log.info(`${signal} received: shutting down`)
    server.close().then(() => process.exit(0), (err) => { log.error(String(err)); process.exit(1) })
  }
  process.on('SIGINT', () => stop('SIGINT'))
  process.on('SIGTERM', () => stop('SIGTERM'))
}

main().catch((err) => {
  process.stderr.write(`fatal: ${(err as Error).stack ?? err}\n`)
  process.exit(1)
})

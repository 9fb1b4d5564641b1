/** Leveled logging to stderr, with Meilisearch's level names (`--log-level`). */
export const LOG_LEVELS = ['OFF', 'ERROR', 'WARN', 'INFO', 'DEBUG', 'TRACE'] as const
export type LogLevel = (typeof LOG_LEVELS)[number]

export interface Logger {
  error(msg: string): void
  warn(msg: string): void
  info(msg: string): void
  debug(msg: string): void
  enabled(level: LogLevel): boolean
}

export function createLogger(level: LogLevel, write: (line: string) => void = (l) => process.stderr.write(l + '\n')): Logger {
  const rank = LOG_LEVELS.indexOf(level)
  const emit = (lvl: LogLevel) => (msg: string) => {
    if (LOG_LEVELS.indexOf(lvl) <= rank) write(`${new Date().toISOString()} ${lvl.padEnd(5)} ${msg}`)
  }
  return {
    error: emit('ERROR'), warn: emit('WARN'), info: emit('INFO'), debug: emit('DEBUG'),
    enabled: (lvl) => LOG_LEVELS.indexOf(lvl) <= rank,
  }
}

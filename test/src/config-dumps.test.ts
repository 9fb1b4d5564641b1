/** The dump and snapshot options: defaults, `--schedule-snapshot`'s optional value, switches, and conflicts. */
import t from 'tap'
import { helpText, parseArgs, type Config } from '../../src/config.js'

const run = (argv: string[], env: NodeJS.ProcessEnv = {}): Config => {
  const parsed = parseArgs(argv, env)
  if (parsed.kind !== 'run') throw new Error('not a run')
  return parsed.config
}

t.test('defaults are Meilisearch\'s', async (t) => {
  t.match(run([]), { dumpDir: 'dumps/', snapshotDir: 'snapshots/', importDump: null, importSnapshot: null, scheduleSnapshot: null, ignoreMissingDump: false, ignoreDumpIfDbExists: false, ignoreMissingSnapshot: false, ignoreSnapshotIfDbExists: false })
})

t.test('--schedule-snapshot takes an optional number of seconds', async (t) => {
  t.equal(run(['--schedule-snapshot']).scheduleSnapshot, 86_400, 'alone: a day')
  t.equal(run(['--schedule-snapshot', '--db-path', 'x']).scheduleSnapshot, 86_400, 'followed by another flag: a day')
  t.equal(run(['--schedule-snapshot', '30']).scheduleSnapshot, 30)
  t.equal(run(['--schedule-snapshot=false']).scheduleSnapshot, null)
  t.equal(run([], { TESSERA_SCHEDULE_SNAPSHOT: 'true' }).scheduleSnapshot, 86_400)
  t.equal(run([], { TESSERA_SCHEDULE_SNAPSHOT: '5' }).scheduleSnapshot, 5)
  t.throws(() => run(['--schedule-snapshot', '0']), /invalid --schedule-snapshot `0`: expected a whole number of seconds from 1/)
  t.throws(() => run(['--schedule-snapshot', '1.5']), /invalid --schedule-snapshot `1.5`/)
})

t.test('imports and their switches', async (t) => {
  t.match(run(['--import-dump', 'a.dump', '--ignore-missing-dump', '--ignore-dump-if-db-exists']), { importDump: 'a.dump', ignoreMissingDump: true, ignoreDumpIfDbExists: true })
  t.match(run([], { TESSERA_IMPORT_SNAPSHOT: 's', TESSERA_IGNORE_MISSING_SNAPSHOT: '1', TESSERA_SNAPSHOT_DIR: '/snaps' }), { importSnapshot: 's', ignoreMissingSnapshot: true, snapshotDir: '/snaps' })
  t.throws(() => run(['--import-dump', 'a', '--import-snapshot', 'b']), /cannot be used together/)
  t.throws(() => run(['--ignore-missing-dump=maybe']), /invalid --ignore-missing-dump `maybe`/)
  t.match(helpText(), /--schedule-snapshot \[<SECONDS>\]/)
})

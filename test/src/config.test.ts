/** Parsing of the options (no process started): the preview's switch. */
import t from 'tap'
import { ConfigError, helpText, parseArgs } from '../../src/config.js'

const run = (argv: string[], env: NodeJS.ProcessEnv = {}) => {
  const parsed = parseArgs(argv, env)
  if (parsed.kind !== 'run') throw new Error(parsed.kind)
  return parsed.config
}

t.test('the preview is on in development, off in production and with --no-preview', async (t) => {
  t.equal(run([]).preview, true)
  t.equal(run(['--no-preview']).preview, false, 'a switch: no value')
  t.equal(run(['--no-preview', '--log-level', 'WARN']).preview, false, 'the next argument is not its value')
  t.equal(run(['--no-preview=false']).preview, true)
  t.equal(run(['--no-preview=true']).preview, false)
  t.equal(run([], { TESSERA_NO_PREVIEW: 'true' }).preview, false)
  t.equal(run([], { TESSERA_NO_PREVIEW: '1' }).preview, false)
  t.equal(run([], { TESSERA_NO_PREVIEW: 'FALSE' }).preview, true)
  t.equal(run(['--no-preview=false'], { TESSERA_NO_PREVIEW: 'true' }).preview, true, 'the flag wins')
  t.equal(run(['--env', 'production', '--master-key', 'a-master-key-of-16-bytes']).preview, false, 'never in production')
  t.equal(run(['--env', 'production', '--master-key', 'a-master-key-of-16-bytes', '--no-preview=false']).preview, false)
})

t.test('bad values', async (t) => {
  t.throws(() => run(['--no-preview=maybe']), new ConfigError('invalid --no-preview `maybe`: expected true or false'))
  t.throws(() => run([], { TESSERA_NO_PREVIEW: 'constructor' }), /invalid --no-preview `constructor`/, 'no prototype keys')
  t.throws(() => run([], { TESSERA_NO_PREVIEW: 'yes please' }), /expected true or false/)
})

t.test('--help shows it as a switch', async (t) => {
  const help = helpText()
  t.match(help, /\n {2}--no-preview\n {6}Do not serve the search preview page at \//)
  t.match(help, /\[env: TESSERA_NO_PREVIEW\]/)
})

/**
 * `npm run chaos -- <crash|fuzz|soak|load> [options]`: the harnesses that hammer Tessera's promises (see the README,
 * "Guarantees and how they are tested"). Each prints its seed and its figures and exits non-zero on a failure.
 */
import { crashStorm } from './crash.js'
import { fuzz } from './fuzz.js'
import { DEFAULT_HOGS, loadRun } from './load.js'
import { soak } from './soak.js'

function option(args: string[], name: string): string | undefined {
  const i = args.indexOf(name)
  return i < 0 ? undefined : args[i + 1]
}

async function main(): Promise<boolean> {
  const [command, ...args] = process.argv.slice(2)
  const quick = args.includes('--quick')
  const seed = Number(option(args, '--seed') ?? Math.floor(Math.random() * 2 ** 31))
  switch (command) {
    case 'crash':
      return crashStorm({ kills: Number(option(args, '--kills') ?? (quick ? 16 : 200)), seed, keep: args.includes('--keep') })
    case 'fuzz': {
      const replay = option(args, '--replay')
      return fuzz({ seconds: Number(option(args, '--seconds') ?? (quick ? 45 : 600)), seed, replay: replay === undefined ? null : Number(replay) })
    }
    case 'soak':
      return soak({ minutes: Number(option(args, '--minutes') ?? 10), seed, svg: option(args, '--svg') ?? null })
    case 'load':
      return loadRun({ runs: Number(option(args, '--runs') ?? 3), hogs: Number(option(args, '--hogs') ?? DEFAULT_HOGS) })
    default:
      console.error([
        'usage: npm run chaos -- crash [--quick] [--kills N] [--seed S] [--keep]',
        '       npm run chaos -- fuzz [--quick] [--seconds N] [--seed S] [--replay I]',
        '       npm run chaos -- soak [--minutes M] [--seed S] [--svg FILE]',
        '       npm run chaos -- load [--runs N] [--hogs N]',
      ].join('\n'))
      return false
  }
}

main().then((ok) => process.exit(ok ? 0 : 1), (err) => { console.error(err); process.exit(1) })

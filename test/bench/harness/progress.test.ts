/** Progress bars: redrawn in place on a terminal, a line per quarter otherwise. */
import t from 'tap'
import { progress } from '../../../bench/harness/progress.js'

function fakeStream(isTTY: boolean): NodeJS.WriteStream & { text: string } {
  const s = { isTTY, text: '', write(chunk: string) { s.text += chunk; return true } }
  return s as unknown as NodeJS.WriteStream & { text: string }
}

t.test('without a terminal: a line at 0, 25, 50 and 75 %, then the result', async (t) => {
  const out = fakeStream(false)
  const bar = progress('tasks, registering', 100, out)
  for (let i = 0; i <= 100; i++) bar.update(i)
  bar.log('a line of its own')
  bar.done('2,000 tasks/s')
  const lines = out.text.trim().split('\n')
  t.equal(lines.length, 6)
  t.match(lines[0], /^bench: tasks, registering \[\.{24}\]   0 % /)
  t.match(lines[1], /^bench: tasks, registering \[#{6}\.{18}\]  25 % /)
  t.match(lines[3], /^bench: tasks, registering \[#{18}\.{6}\]  75 % /)
  t.equal(lines[4], 'a line of its own')
  t.match(lines[5], /^bench: tasks, registering done in \d+\.\d s: 2,000 tasks\/s$/)
  bar.update(100)
  bar.done('again')
  t.equal(out.text.trim().split('\n').length, 6, 'nothing after done')
})

t.test('on a terminal: redrawn in place, lines printed above the bar', async (t) => {
  const out = fakeStream(true)
  const bar = progress('sweeps', 4, out)
  bar.update(4)
  bar.log('note')
  bar.done()
  t.match(out.text, /^\rbench: sweeps \[#{24}\] 100 % [\d.]+ s\x1b\[K\rnote\x1b\[K\nbench: sweeps \[#{24}\] 100 % [\d.]+ s\rbench: sweeps done in [\d.]+ s\x1b\[K\n$/)
})

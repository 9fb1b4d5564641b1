import t from 'tap'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { chartFile, listCharts } from '../../../src/preview/index.js'

const svg = (title: string) => `<svg xmlns="http://www.w3.org/2000/svg"><g class="mark-text role-title-text" role="graphics-symbol"><text x="1">${title}</text></g></svg>`

t.test('charts are listed by report, titled by their own title', async (t) => {
  const root = t.testdir({ 'search.md': '', 'search-long.md': '', charts: {} })
  const dir = join(root, 'charts')
  writeFileSync(join(dir, 'search-qps.svg'), svg('Searches per second'))
  writeFileSync(join(dir, 'search-long-peers-latency.svg'), svg('Latency &amp; peers'))
  writeFileSync(join(dir, 'tasks-reindex.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>')
  writeFileSync(join(dir, 'notes.txt'), 'not a chart')
  mkdirSync(join(dir, 'nested.svg'))
  t.same(listCharts(dir), [
    { file: 'search-long-peers-latency.svg', report: 'search-long', title: 'Latency & peers' },
    { file: 'search-qps.svg', report: 'search', title: 'Searches per second' },
    { file: 'tasks-reindex.svg', report: 'tasks', title: 'reindex' },
  ].sort((a, b) => a.file.localeCompare(b.file)))
})

t.test('no folder, no charts', async (t) => {
  t.same(listCharts(join(t.testdir({}), 'absent')), [])
})

t.test('a chart is read now, by its name only', async (t) => {
  const dir = t.testdir({ 'a.svg': svg('A'), 'b.png': 'x' })
  const chart = chartFile('a.svg', dir)!
  t.equal(chart.file.type, 'image/svg+xml')
  t.match(chart.headers['content-security-policy'], /default-src 'none'/)
  writeFileSync(join(dir, 'a.svg'), svg('B'))
  t.match(chartFile('a.svg', dir)!.file.body.toString(), />B</, 'redrawn: served anew')
  for (const bad of ['../a.svg', '..%2Fa.svg', '.hidden.svg', 'b.png', 'missing.svg', 'a.svg/x', '']) t.equal(chartFile(bad, dir), undefined, bad)
})

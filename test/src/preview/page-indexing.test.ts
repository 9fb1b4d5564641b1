/**
 * The preview page's indexing view in a real headless browser: while a large payload is indexed, the running
 * batch's bar advances (documents processed out of received, from GET /batches), then the task shows as
 * succeeded in the recent tasks with its duration.
 */
import t from 'tap'
import { browserFor, browserMissing, openPage, screenshot, until } from '../../helpers/browser.js'
import { call, serverFor, waitTask } from '../../helpers/server.js'

/** Enough documents for eight ~1 MB chunks: several polls of the page see the batch between its ends. */
const DOCUMENTS = 80_000

function ndjson(count: number): string {
  const words = ['amber', 'basalt', 'cedar', 'delta', 'ember', 'fjord', 'granite', 'harbor', 'indigo', 'juniper', 'kelp', 'lagoon']
  const lines: string[] = []
  for (let i = 0; i < count; i++) {
    const text = Array.from({ length: 10 }, (_, k) => words[(i * 7 + k * 5) % words.length]).join(' ')
    lines.push(JSON.stringify({ id: i, title: `item ${i}`, text, n: i % 97 }))
  }
  return lines.join('\n')
}

t.test('indexing progress in the browser', { skip: browserMissing() }, async (t) => {
  const server = await serverFor(t)
  const browser = await browserFor(t)
  const { page, outside, errors } = await openPage(browser)
  await page.goto(server.url + '/#/indexing')
  await page.waitForSelector('#view-indexing:not([hidden])')
  t.equal(await page.textContent('#batch'), 'No batch is running.')

  const payload = ndjson(DOCUMENTS)
  const posted = await call(`${server.url}/indexes/items/documents?primaryKey=id`, { method: 'POST', body: payload, headers: { 'content-type': 'application/x-ndjson' } })
  t.equal(posted.status, 202)
  let done = false
  const finished = waitTask(server.url, posted.body.taskUid, 180_000).finally(() => { done = true })

  // What the bar showed, poll after poll of the test (the page polls the server every 500 ms).
  const seen: { value: number; figures: string; steps: string }[] = []
  let shot = false
  while (!done) {
    // Read in one go (as text: the tests are typed for Node, not the DOM): the bar may go between two reads.
    const state = await page.evaluate<{ value: number; figures: string; steps: string } | null>(`(() => {
      const bar = document.querySelector('#batch [role="progressbar"]')
      if (!bar) return null
      return { value: Number(bar.getAttribute('aria-valuenow')), figures: document.querySelector('#batch .figures').textContent, steps: document.querySelector('#batch .steps').textContent }
    })()`)
    if (state) {
      if (seen.at(-1)?.figures !== state.figures) seen.push(state)
      if (!shot && state.value > 5 && state.value < 95 && /documents\/s/.test(state.figures)) {
        shot = true
        await screenshot(page, 'indexing')
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  t.equal((await finished).status, 'succeeded')
  t.comment(`the bar showed: ${seen.map((s) => s.value).join(' → ')}`)
  const counting = seen.filter((s) => s.steps.includes('document'))
  t.ok(counting.length >= 2, 'the batch was seen counting its documents more than once')
  const values = counting.map((s) => s.value)
  t.same(values, [...values].sort((a, b) => a - b), 'the bar only moves forward')
  t.ok(values.some((v) => v > 0 && v < 100), 'seen between its ends')
  t.ok(new Set(values).size >= 2, 'and advancing')
  t.match(counting.find((s) => s.value > 0)?.figures, new RegExp(`^[\\d,]+ of ${DOCUMENTS.toLocaleString('en-US')} documents · [\\d.]+ %`))
  t.match(counting[0]?.steps, /^processing tasks › indexing › document$/, "Meilisearch's step names")
  t.ok(seen.some((s) => /documents\/s · about .+ left$/.test(s.figures)), 'a rate and the time left, from successive polls')

  await until(async () => (await page.locator(`#tasks tr[data-task="${posted.body.taskUid}"] .status-succeeded`).count()) === 1, 'the task listed as succeeded')
  const row = (await page.locator(`#tasks tr[data-task="${posted.body.taskUid}"] td`).allTextContents())
  t.same(row.slice(0, 5), [String(posted.body.taskUid), 'items', 'documentAdditionOrUpdate', 'succeeded', DOCUMENTS.toLocaleString('en-US')])
  t.match(row[5], /^\d+(\.\d+)? (ms|s)$|min/, 'its duration, readable')
  await until(async () => (await page.textContent('#batch')) === 'No batch is running.', 'the bar gone with the batch')
  t.same(outside, [])
  t.same(errors, [])
})

/**
 * The preview page and API keys, in a real headless browser: the page itself loads without a key; the API's
 * 401/403 bring up the key prompt with the server's message; a wrong key is refused, the right one accepted and kept
 * in the tab's session storage only; a key limited to some indexes sees only those. And the page is absent in
 * production and with --no-preview. The server enforces the keys itself (a key limited to `movies` is created
 * through `POST /keys`).
 */
import t from 'tap'
import type { Page } from 'playwright-core'
import { browserFor, browserMissing, openPage, screenshot, until } from '../../helpers/browser.js'
import { call, serverFor } from '../../helpers/server.js'
import { configFile } from '../../helpers/auth.js'
import { MOVIES, MOVIE_SETTINGS } from './fixtures.js'

const MASTER = 'preview-master-key-0123456789'
const MISSING = 'The Authorization header is missing. It must use the bearer authorization method.'
const INVALID = 'The provided API key is invalid.'

const dialogOpen = (page: Page) => page.evaluate<boolean>("document.querySelector('#key-dialog').open")

async function seed(url: string, headers: Record<string, string>): Promise<void> {
  for (const [path, method, json] of [
    ['/indexes/movies/settings', 'PATCH', MOVIE_SETTINGS],
    ['/indexes/movies/documents?primaryKey=id', 'POST', MOVIES],
    ['/indexes/private/documents?primaryKey=id', 'POST', [{ id: 1, title: 'Not for every key' }]],
  ] as const) {
    const r = await call(url + path, { method, json, headers })
    if (r.status !== 202) throw new Error(`${path}: ${r.status} ${r.text}`)
  }
  await until(async () => (await call(`${url}/tasks?statuses=enqueued,processing`, { headers })).body.total === 0, 'seeding done', 60_000)
}

t.test('the key prompt', { skip: browserMissing() }, async (t) => {
  const server = await serverFor(t, { args: ['--master-key', MASTER] })
  const auth = { authorization: `Bearer ${MASTER}` }
  await seed(server.url, auth)
  t.equal((await call(`${server.url}/indexes`)).status, 401, 'the server enforces keys')
  const base = server.url
  const created = await call(`${server.url}/keys`, { method: 'POST', json: { actions: ['*'], indexes: ['movies'], expiresAt: null }, headers: auth })
  t.equal(created.status, 201, created.text)
  const limitedKey: string = created.body.key
  const browser = await browserFor(t)
  const { page, outside, errors } = await openPage(browser)
  const sent: { path: string; authorization: string | undefined }[] = []
  page.on('request', (r) => sent.push({ path: new URL(r.url()).pathname, authorization: r.headers().authorization }))

  await t.test('the page loads without a key, then asks for one', async (t) => {
    const response = await page.goto(base + '/')
    t.equal(response?.status(), 200)
    await until(() => dialogOpen(page), 'the key prompt')
    t.equal(await page.textContent('#key-reason'), MISSING, "the server's own message")
    const evaluated = await page.evaluate<string>('document.activeElement?.id')
    t.equal(evaluated, 'key-input', 'the key field has the focus')
    t.ok(sent.filter((s) => s.path === '/' || s.path.startsWith('/preview/')).every((s) => !s.authorization), 'page files fetched without a key')
    await screenshot(page, 'key')
  })

  await t.test('a wrong key is refused, the right one accepted', async (t) => {
    await page.fill('#key-input', 'not-the-key')
    await page.keyboard.press('Enter')
    await until(async () => (await page.textContent('#key-reason')) === INVALID && (await dialogOpen(page)), 'the prompt again, saying why')
    await page.fill('#key-input', MASTER)
    await page.click('#key-form button[type="submit"]')
    await until(async () => !(await dialogOpen(page)), 'the prompt closed')
    await until(async () => (await page.locator('#hits .hit').count()) > 0, 'hits')
    t.same(await page.locator('#index option').allTextContents(), ['movies', 'private'])
    t.equal(await page.textContent('#key-label'), 'API key set')
    t.equal(await page.evaluate<string | null>("sessionStorage.getItem('tessera.apiKey')"), MASTER, 'in session storage')
    t.equal(await page.evaluate<number>('localStorage.length'), 0, 'nowhere else')
    t.equal(await page.evaluate<string>('document.cookie'), '')
    const api = sent.filter((s) => s.path.startsWith('/indexes/movies/search'))
    t.ok(api.length > 0 && api.at(-1)!.authorization === `Bearer ${MASTER}`, 'searches carry the key')
  })

  await t.test('kept for the tab: a reload does not ask again', async (t) => {
    await page.reload()
    await until(async () => (await page.locator('#hits .hit').count()) > 0, 'hits after reload')
    t.notOk(await dialogOpen(page))
  })

  await t.test('a key limited to some indexes sees only those', async (t) => {
    await page.click('#key-change')
    await until(() => dialogOpen(page), 'the prompt')
    await page.fill('#key-input', limitedKey)
    await page.keyboard.press('Enter')
    await until(async () => JSON.stringify(await page.locator('#index option').allTextContents()) === '["movies"]', 'only movies listed')
    t.pass('the picker lists what the server lists for the key')
  })

  await t.test('forgetting the key, then declining to give one', async (t) => {
    await page.click('#key-forget')
    await until(() => dialogOpen(page), 'the prompt')
    t.equal(await page.evaluate<string | null>("sessionStorage.getItem('tessera.apiKey')"), null)
    await page.click('#key-cancel')
    await until(async () => ((await page.textContent('#summary')) ?? '').startsWith('Cannot list the indexes'), 'said inline')
    t.match(await page.textContent('#summary'), MISSING)
  })

  t.same(outside, [])
  t.same(errors, [])
})

t.test('the page is absent in production and with --no-preview', { skip: browserMissing() }, async (t) => {
  const secret = configFile(t, "export default { secret: 'preview-test-secret' }\n")
  const browser = await browserFor(t)
  for (const [name, args] of [
    ['--env production', ['--env', 'production', '--master-key', 'a-master-key-of-16-bytes', '--config', secret]],
    ['--no-preview', ['--no-preview']],
  ] as const) {
    await t.test(name, async (t) => {
      const server = await serverFor(t, { args: [...args] })
      const { page } = await openPage(browser)
      await page.goto(server.url + '/')
      t.equal(await page.locator('#q').count(), 0, 'no search page')
      t.match(await page.textContent('body'), /"status":\s*"Meilisearch is running"/)
      t.equal(await page.evaluate<number>("fetch('/preview/app.js').then((r) => r.status)"), 404, 'nor its files')
    })
  }
})

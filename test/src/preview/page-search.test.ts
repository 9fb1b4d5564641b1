/**
 * The preview page's search in a real headless browser against the real server: search as you type with
 * highlights and score details, facets that filter, the server's filter and sort errors shown inline, paging,
 * hybrid controls, keyboard use, a phone-sized screen, the bench charts, and nothing loaded from elsewhere.
 */
import t from 'tap'
import type { Page, Request } from 'playwright-core'
import { browserFor, browserMissing, openPage, screenshot, until } from '../../helpers/browser.js'
import { call, seedIndex, serverFor } from '../../helpers/server.js'
import { EmbeddingServer } from '../../helpers/embedding-server.js'
import { listCharts } from '../../../src/preview/index.js'
import { MOVIES, MOVIE_SETTINGS } from './fixtures.js'

const titles = (page: Page) => page.locator('#hits .hit-title').allTextContents()
/** Wait until the hits are exactly these titles, in this order. */
const hitsAre = (page: Page, expected: string[]) =>
  until(async () => JSON.stringify(await titles(page)) === JSON.stringify(expected), `hits ${expected.join(', ')}`)
/** Wait until the summary counts `n` hits. */
const counted = (page: Page, n: number) =>
  until(async () => ((await page.textContent('#summary')) ?? '').startsWith(`${n} hit${n === 1 ? '' : 's'} `), `${n} hits`)
/** Wait until an element's text is this (or, with a function, passes it). */
const textIs = (page: Page, selector: string, want: string | ((text: string) => boolean)) =>
  until(async () => {
    const text = (await page.textContent(selector)) ?? ''
    return typeof want === 'string' ? text === want : want(text)
  }, `${selector} text`)

t.test('search in the browser', { skip: browserMissing() }, async (t) => {
  // A real embedder for the hybrid controls: a REST one on the local embedding server (loopback allowed).
  const embeddings = await EmbeddingServer.start()
  t.teardown(() => embeddings.close())
  const server = await serverFor(t, { args: ['--experimental-allowed-ip-networks', '127.0.0.0/8'] })
  await seedIndex(server.url, 'movies', MOVIE_SETTINGS, MOVIES)
  const words = {
    source: 'rest', url: `${embeddings.url}/batch`, documentTemplate: '{{doc.name}}',
    request: { texts: [{ text: '{{text}}' }, '{{..}}'] }, response: { items: [{ embedding: { values: '{{embedding}}' } }, '{{..}}'] },
  }
  await seedIndex(server.url, 'products', { embedders: { words } }, [
    { id: 1, name: 'Trail running shoes' },
    { id: 2, name: 'Rain jacket' },
  ])
  const browser = await browserFor(t)
  const { page, outside, errors } = await openPage(browser)
  await page.goto(server.url + '/')
  await page.waitForSelector('#hits .hit')

  await t.test('type a query: the expected first hit, highlighted, with its score', async (t) => {
    t.equal(await page.inputValue('#index'), 'movies', 'the first index is searched')
    await page.locator('#q').pressSequentially('dark knigt', { delay: 20 })
    const first = page.locator('#hits .hit').first()
    // The placeholder search shows this movie first too: wait for the query's own answer, highlighted.
    await until(async () => (await first.locator('.hit-title').textContent()) === 'The Dark Knight' && (await first.locator('.hit-title mark').count()) === 2, 'the highlighted first hit')
    // Highlighted as the server highlights them (its default tags, asked directly), the typo too.
    const direct = await call(`${server.url}/indexes/movies/search`, { method: 'POST', json: { q: 'dark knigt', limit: 1, attributesToHighlight: ['title'] } })
    const marked = [...(direct.body.hits[0]._formatted.title as string).matchAll(/<em>(.*?)<\/em>/g)].map((m) => m[1])
    t.equal(marked.length, 2)
    t.same(await first.locator('.hit-title mark').allTextContents(), marked, `highlights: ${marked.join(', ')}`)
    const score = Number(await first.locator('.score-value').textContent())
    t.ok(score > 0 && score <= 1, `score ${score}`)
    t.match(await page.textContent('#summary'), /^\d+ hits? \(estimated\) in \d+ ms$/)
    t.equal(await page.locator('table.ranking').count(), 0, 'details only on demand')
    await page.check('#explain')
    await first.locator('table.ranking').waitFor()
    const rules = await first.locator('table.ranking tbody th').allTextContents()
    t.same(rules, ['words', 'typo', 'proximity', 'attributeRank', 'wordPosition', 'exactness'], 'rules in the order they applied')
    t.match(await first.locator('tr[data-rule="words"]').textContent(), /2 of 2 query words/)
    t.match(await first.locator('tr[data-rule="typo"]').textContent(), /1 typo /)
    await screenshot(page, 'search')
    await page.uncheck('#explain')
  })

  await t.test('a facet value filters; its chip removes it (by keyboard)', async (t) => {
    await page.fill('#q', '')
    await counted(page, MOVIES.length)
    const drama = page.locator('button.facet-value[data-attribute="genre"][data-value="drama"]')
    const dramas = MOVIES.filter((m) => m.genre === 'drama')
    t.match(await drama.locator('.count').textContent(), String(dramas.length), 'the count of the value')
    await drama.click()
    await counted(page, dramas.length)
    t.same((await titles(page)).sort(), dramas.map((m) => m.title).sort())
    t.equal(await drama.getAttribute('aria-pressed'), 'true')
    t.same(await page.locator('#active-filters .chip').allTextContents(), ['genre: drama ×'])
    await screenshot(page, 'facets')
    await page.locator('#active-filters .chip').focus()
    await page.keyboard.press('Enter')
    await counted(page, MOVIES.length)
    t.equal(await page.locator('#active-filters .chip').count(), 0)
    // Long lists show their first values; the rest on demand. A facet value by keyboard too.
    const year2016 = page.locator('button.facet-value[data-attribute="year"][data-value="2016"]')
    t.equal(await year2016.count(), 0, 'not among the first values shown')
    await page.getByRole('button', { name: /^Show all \d+$/ }).first().click()
    await year2016.focus()
    await page.keyboard.press('Space')
    await counted(page, MOVIES.filter((m) => m.year === 2016).length)
    await page.locator('#active-filters .chip').click()
    await counted(page, MOVIES.length)
  })

  await t.test("the server's filter and sort errors, inline", async (t) => {
    await page.fill('#filter', 'genre = ')
    await textIs(page, '#filter-error', (text) => text !== '')
    const message = await page.textContent('#filter-error')
    const direct = await call(`${server.url}/indexes/movies/search`, { method: 'POST', json: { filter: 'genre = ' } })
    t.equal(message, direct.body.message, "Tessera's own message")
    t.match(message, /Was expecting a value/)
    t.equal(await page.getAttribute('#filter', 'aria-invalid'), 'true')
    t.ok(await page.isHidden('#search-error'), 'not shown elsewhere')
    await page.fill('#filter', 'year > 2015')
    await counted(page, MOVIES.filter((m) => m.year > 2015).length)
    t.equal(await page.textContent('#filter-error'), '', 'cleared once valid')
    t.equal(await page.getAttribute('#filter', 'aria-invalid'), null)

    await page.fill('#sort', 'title:asc')
    await textIs(page, '#sort-error', (text) => text !== '')
    t.match(await page.textContent('#sort-error'), /Attribute `title` is not sortable/)
    t.equal(await page.getAttribute('#sort', 'aria-invalid'), 'true')
    await page.fill('#sort', 'year:desc, rating:desc')
    const expected = MOVIES.filter((m) => m.year > 2015).sort((a, b) => b.year - a.year || b.rating - a.rating).slice(0, 10).map((m) => m.title)
    await hitsAre(page, expected)
    t.equal(await page.textContent('#sort-error'), '')
    await page.fill('#filter', '')
    await page.fill('#sort', '')
  })

  await t.test('paging', async (t) => {
    await counted(page, MOVIES.length)
    const pages = Math.ceil(MOVIES.length / 10)
    t.equal(await page.textContent('#page-label'), `Page 1 of about ${pages}`)
    t.ok(await page.isDisabled('#prev'))
    const firstPage = await titles(page)
    t.same(firstPage, MOVIES.slice(0, 10).map((m) => m.title), 'placeholder search: insertion order')
    await page.click('#next')
    await hitsAre(page, MOVIES.slice(10, 20).map((m) => m.title))
    t.equal(await page.locator('#hits .rank').first().textContent(), '#11')
    for (let p = 2; p < pages; p++) {
      await page.click('#next')
      await textIs(page, '#page-label', (text) => text.startsWith(`Page ${p + 1} `))
    }
    await hitsAre(page, MOVIES.slice((pages - 1) * 10).map((m) => m.title))
    t.ok(await page.isDisabled('#next'), 'no page after the last')
    await page.click('#prev')
    await hitsAre(page, MOVIES.slice((pages - 2) * 10, (pages - 1) * 10).map((m) => m.title))
    await page.fill('#q', 'dark')
    await textIs(page, '#page-label', (text) => text.startsWith('Page 1 '))
    t.ok(await page.isDisabled('#prev'), 'a new query starts on page 1')
  })

  await t.test('hybrid controls: hidden without embedders; with one, the request carries `hybrid`', async (t) => {
    t.ok(await page.isHidden('#hybrid'), 'movies has no embedder')
    const searches: Request[] = []
    page.on('request', (r) => { if (r.url().endsWith('/indexes/products/search')) searches.push(r) })
    await page.selectOption('#index', 'products')
    await page.waitForSelector('#hybrid', { state: 'visible' })
    t.equal(await page.inputValue('#embedder'), 'words')
    await page.fill('#q', 'jacket')
    await textIs(page, '#hits .hit-title', 'Rain jacket')
    const bodies = searches.map((r) => r.postDataJSON() as { q: string; hybrid?: unknown })
    t.same(bodies.filter((b) => b.q === 'jacket' && b.hybrid)[0]?.hybrid, { embedder: 'words', semanticRatio: 0.5 })
    // The server embeds the query and merges semantic hits: the summary says how many came from there.
    await textIs(page, '#summary', (text) => /of them from semantic search/.test(text))
    t.equal(await page.textContent('#hybrid-error'), '', 'no error beside the controls')
    await page.locator('#ratio').focus()
    await page.keyboard.press('ArrowRight')
    t.equal(await page.textContent('#ratio-value'), '0.55')
    await t.resolves(page.waitForRequest((r) => r.url().endsWith('/indexes/products/search') && (r.postDataJSON() as { hybrid?: { semanticRatio: number } }).hybrid?.semanticRatio === 0.55))
    await screenshot(page, 'hybrid')
    await page.selectOption('#embedder', '')
    await page.waitForRequest((r) => r.url().endsWith('/indexes/products/search') && !('hybrid' in (r.postDataJSON() as object)))
    await textIs(page, '#hybrid-error', '')
    await page.selectOption('#index', 'movies')
    await page.waitForSelector('#hybrid', { state: 'hidden' })
  })

  await t.test('labels and keyboard', async (t) => {
    // Evaluated in the page (as text: the tests are typed for Node, not the DOM).
    const unlabeled = await page.evaluate<string[]>(`[...document.querySelectorAll('input, select, button')]
      .filter((el) => !el.closest('[hidden]'))
      .filter((el) => !(el.labels && el.labels.length > 0) && !el.getAttribute('aria-label') && !el.textContent.trim())
      .map((el) => el.outerHTML.slice(0, 80))`)
    t.same(unlabeled, [], 'every control has a name')
    await page.locator('body').click({ position: { x: 5, y: 400 } })
    await page.keyboard.press('/')
    const focused = () => page.evaluate<string>('document.activeElement?.id')
    t.equal(await focused(), 'q', '/ jumps to the search box')
    await page.keyboard.press('Shift+Tab')
    t.equal(await focused(), 'index', 'the index picker comes before it')
  })

  await t.test('the bench charts page', async (t) => {
    const charts = listCharts()
    await page.goto(server.url + '/#/charts')
    if (charts.length === 0) {
      t.ok(await page.isHidden('#charts-tab'), 'no charts here: no tab')
      return
    }
    await page.waitForSelector('#charts-tab', { state: 'visible' })
    await page.waitForSelector('#charts figure img')
    t.equal(await page.locator('#charts figure').count(), charts.length)
    const alts = await Promise.all((await page.locator('#charts figure img').all()).map((img) => img.getAttribute('alt')))
    t.same(alts.sort(), charts.map((c) => c.title).sort(), 'each chart, its title as its text')
    await until(() => page.evaluate<boolean>("document.querySelector('#charts figure img').naturalWidth > 0"), 'the first chart drawn')
    t.ok(await page.isHidden('#view-search'), 'a page of their own')
    await screenshot(page, 'charts')
  })

  await t.test('a phone-sized screen', async (t) => {
    const phone = await openPage(browser, { width: 390, height: 844 })
    await phone.page.goto(server.url + '/')
    await phone.page.fill('#q', 'dark')
    await textIs(phone.page, '#hits .hit-title', (text) => text.includes('Dark'))
    const [scrollWidth, width] = await phone.page.evaluate<number[]>('[document.documentElement.scrollWidth, window.innerWidth]')
    t.ok(scrollWidth <= width, `no sideways scrolling (${scrollWidth} <= ${width})`)
    const facets = await phone.page.locator('.facets').boundingBox()
    const hits = await phone.page.locator('.results').boundingBox()
    t.ok(facets && hits && facets.y < hits.y && facets.width > 300, 'one column: the facets above the hits, full width')
    await screenshot(phone.page, 'phone')
    t.same(phone.outside, [])
  })

  t.same(outside, [], 'nothing was requested from outside the machine')
  t.same(errors, [], 'no script error')
})

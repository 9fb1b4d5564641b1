/**
 * A real headless browser for the preview page's tests: Debian's chromium (`scripts/install-chromium.sh`) driven
 * by playwright-core. Tests skip, saying why, where it is not installed. The browser may only reach 127.0.0.1:
 * the background-networking flags keep Chromium's own services quiet, and every request to another host is
 * aborted and recorded (a test can then fail on it).
 */
import { existsSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { chromium, type Browser, type Page } from 'playwright-core'

export const CHROMIUM = '/usr/bin/chromium'
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync']

/** The reason to skip browser tests here, or false when chromium is installed. */
export function browserMissing(): string | false {
  return existsSync(CHROMIUM) ? false : `${CHROMIUM} is missing (install it with scripts/install-chromium.sh)`
}

/** Launch chromium for a tap test (a fresh, empty profile; closed at teardown). */
export async function browserFor(t: { teardown(fn: () => unknown): void }): Promise<Browser> {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS, timeout: 60_000 })
  t.teardown(() => browser.close())
  return browser
}

export interface WatchedPage {
  page: Page
  /** Requests that went (or tried to go) anywhere but 127.0.0.1. */
  outside: string[]
  /** Uncaught errors of the page's scripts. */
  errors: string[]
}

/** A new page (own context: own session storage) that may only talk to 127.0.0.1. */
export async function openPage(browser: Browser, viewport = { width: 1200, height: 900 }): Promise<WatchedPage> {
  const context = await browser.newContext({ viewport })
  const page = await context.newPage()
  page.setDefaultTimeout(30_000)
  const outside: string[] = []
  const errors: string[] = []
  await context.route('**/*', (route) => {
    const url = new URL(route.request().url())
    if (url.hostname === '127.0.0.1' || url.protocol === 'data:') return route.continue()
    outside.push(url.href)
    return route.abort()
  })
  page.on('pageerror', (err) => errors.push(err.message))
  return { page, outside, errors }
}

/**
 * With `TESSERA_PREVIEW_SCREENSHOTS=<dir>` (e.g. `docs/preview`), save a screenshot of the page there as
 * `<name>.png`; otherwise do nothing (tests do not write into the repository by default).
 */
export async function screenshot(page: Page, name: string): Promise<void> {
  const dir = process.env.TESSERA_PREVIEW_SCREENSHOTS
  if (!dir) return
  mkdirSync(dir, { recursive: true })
  await page.screenshot({ path: join(dir, `${name}.png`) })
}

/**
 * Wait until `check` holds, polling from the test's side (the page updates as answers arrive). Checks read the
 * page through playwright's locators, so the tests need no DOM types.
 */
export async function until(check: () => Promise<boolean> | boolean, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    if (await check()) return
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 40))
  }
}

/**
 * The search preview: a small page served at `/` in development (as Meilisearch serves its mini-dashboard) that
 * talks to the public API only, from the browser, with `fetch`. Its files are plain ES modules and CSS in
 * `assets/`, read from the package (`src/` ships with it; the build compiles only .ts), so `npm start` serves
 * them as they are. The bench's SVG charts are served read-only from `bench/results/charts/` when present.
 */
import { readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { PACKAGE_ROOT } from '../version.js'
import { loadFolder, staticFile, type StaticFile } from './static-files.js'

export const ASSETS_DIR = join(PACKAGE_ROOT, 'src', 'preview', 'assets')
export const CHARTS_DIR = join(PACKAGE_ROOT, 'bench', 'results', 'charts')

/**
 * The page loads nothing from outside the machine, and runs no inline script: what it shows of the documents
 * (highlights included) is set as text, never as HTML.
 */
export const PAGE_HEADERS: Record<string, string> = {
  'content-security-policy': "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'referrer-policy': 'no-referrer',
}

/** A chart is an image: opened on its own, it may still not run anything. */
const CHART_HEADERS: Record<string, string> = { 'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'" }

let assets: Map<string, StaticFile> | null = null

/** The page's files, read and compressed on first use. */
export function previewAssets(): Map<string, StaticFile> {
  assets ??= loadFolder(ASSETS_DIR)
  return assets
}

export interface Chart {
  /** File name under `/preview/charts/`. */
  file: string
  /** The bench report it belongs to (`search`, `search-long`, `sweeps`, ...). */
  report: string
  /** What it plots: the chart's own title, else words from its name (`peers latency`). */
  title: string
}

const CHART_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*\.svg$/

/** The charts present, by report then name; none when the bench has not written any (or the folder is absent). */
export function listCharts(dir: string = CHARTS_DIR): Chart[] {
  let names: string[]
  try {
    names = readdirSync(dir, { withFileTypes: true }).filter((e) => e.isFile() && CHART_NAME.test(e.name)).map((e) => e.name).sort()
  } catch {
    return []
  }
  // A chart's report is the longest report name that prefixes it (`search-long-qps` is of `search-long`).
  let reports: string[] = []
  try {
    reports = readdirSync(join(dir, '..')).filter((n) => n.endsWith('.md')).map((n) => n.slice(0, -3))
  } catch { /* no reports beside the charts: each chart names its own */ }
  return names.map((file) => {
    const stem = file.slice(0, -4)
    const report = reports.filter((r) => stem.startsWith(r + '-')).sort((a, b) => b.length - a.length)[0] ?? stem.split('-')[0]!
    const title = chartTitle(join(dir, file)) ?? (stem === report ? stem : stem.slice(report.length + 1).replace(/-/g, ' '))
    return { file, report, title }
  })
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", '#39': "'" }

/** The title vega-lite drew on a chart (its `role-title-text` mark), for the page's captions and alt texts. */
function chartTitle(path: string): string | undefined {
  let svg: string
  try {
    svg = readFileSync(path, 'utf8')
  } catch {
    return undefined
  }
  const m = /role-title-text"[^>]*><text[^>]*>([^<]{1,300})<\/text>/.exec(svg)
  return m?.[1]!.replace(/&(amp|lt|gt|quot|apos|#39);/g, (_, e: string) => ENTITIES[e]!)
}

/** One chart, read now (the bench may have redrawn it); undefined when absent or not a chart's name. */
export function chartFile(name: string, dir: string = CHARTS_DIR): { file: StaticFile; headers: Record<string, string> } | undefined {
  if (!CHART_NAME.test(name)) return undefined
  let body: Buffer
  try {
    body = readFileSync(join(dir, name))
  } catch {
    return undefined
  }
  const file = staticFile(name, body)
  return file && { file, headers: CHART_HEADERS }
}

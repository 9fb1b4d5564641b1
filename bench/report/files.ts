/** Writing a report: `<dir>/<name>.json` (every figure) and `<dir>/<name>.md` (its Markdown, with its charts). */
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { chartsMarkdown, type ChartSpec } from './charts.js'

export interface WrittenReport {
  json: string
  md: string
  markdown: string
}

/** Write `<dir>/<name>.json` (the report) and `<dir>/<name>.md` (its Markdown); returns the paths and Markdown. */
export function writeReportFiles(dir: string, name: string, report: unknown, markdown: string): WrittenReport {
  mkdirSync(dir, { recursive: true })
  const json = join(dir, `${name}.json`)
  const md = join(dir, `${name}.md`)
  writeFileSync(json, JSON.stringify(report, null, 2) + '\n')
  writeFileSync(md, markdown)
  return { json, md, markdown }
}

/**
 * Write `<dir>/<name>.json` and `<dir>/<name>.md`; the charts (SVG files under `<dir>/charts/`, when vega is
 * installed) are appended to the Markdown in a "Charts" section.
 */
export async function writeReportWithCharts(dir: string, name: string, report: unknown, markdown: string, charts: Record<string, ChartSpec>): Promise<WrittenReport> {
  mkdirSync(dir, { recursive: true })
  const drawn = await chartsMarkdown(dir, charts)
  return writeReportFiles(dir, name, report, drawn ? `${markdown.trimEnd()}\n\n## Charts\n\n${drawn}` : markdown)
}

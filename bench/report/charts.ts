/**
 * SVG charts for the Markdown reports, drawn by vega-lite (compiled to a Vega spec, rendered headless by Vega's
 * SVG string renderer: no browser, no canvas). vega and vega-lite are development dependencies: where they are not
 * installed (a production install running `tessera bench`), the reports are written without charts.
 *
 * A chart is described by rows of plain data and the fields to plot; the file lands next to the report, and the
 * report links it with a relative path.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

type Row = Record<string, string | number | null>

export interface Axis {
  field: string
  title: string
  /** A log scale (sweeps over decades: maxTotalHits, clients, cutoffs). */
  log?: boolean
  /** Categories in this order (a nominal axis). */
  sort?: string[]
}

export interface ChartSpec {
  title: string
  kind: 'line' | 'bar'
  rows: Row[]
  x: Axis
  y: Axis
  /** One line (or bar colour) per value of this field. */
  series?: string
  width?: number
  height?: number
}

interface Renderer {
  vega: { View: new (runtime: unknown, options: { renderer: string }) => { toSVG(): Promise<string>; finalize(): void }; parse(spec: unknown): unknown }
  vegaLite: { compile(spec: unknown): { spec: unknown } }
}

let loaded: Promise<Renderer | null> | null = null

/** vega and vega-lite, or null when they are not installed. Module names are variables: no types are pulled in. */
function renderer(): Promise<Renderer | null> {
  loaded ??= (async () => {
    try {
      const vegaName = 'vega'
      const vegaLiteName = 'vega-lite'
      const [vega, vegaLite] = await Promise.all([import(vegaName), import(vegaLiteName)])
      return { vega, vegaLite } as Renderer
    } catch {
      return null
    }
  })()
  return loaded
}

/** The vega-lite spec of a chart (exported for tests and for readers who want to restyle a chart). */
export function vegaLiteSpec(chart: ChartSpec): Record<string, unknown> {
  const axis = (a: Axis, quantitative: boolean) => ({
    field: a.field,
    title: a.title,
    type: quantitative ? 'quantitative' : 'nominal',
    ...(a.log ? { scale: { type: 'log' } } : {}),
    ...(a.sort ? { sort: a.sort } : {}),
  })
  const xQuantitative = chart.kind === 'line'
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v5.json',
    title: chart.title,
    width: chart.width ?? 480,
    height: chart.height ?? 240,
    background: 'white',
    data: { values: chart.rows },
    mark: chart.kind === 'line' ? { type: 'line', point: true } : { type: 'bar' },
    encoding: {
      x: axis(chart.x, xQuantitative),
      y: axis(chart.y, true),
      ...(chart.series ? { color: { field: chart.series, type: 'nominal', title: null } } : {}),
      ...(chart.series && chart.kind === 'bar' ? { xOffset: { field: chart.series } } : {}),
    },
  }
}

/** The chart as an SVG document, or null without vega (or with no rows). */
export async function renderChart(chart: ChartSpec): Promise<string | null> {
  if (chart.rows.length === 0) return null
  const r = await renderer()
  if (!r) return null
  const view = new r.vega.View(r.vega.parse(r.vegaLite.compile(vegaLiteSpec(chart)).spec), { renderer: 'none' })
  try {
    return await view.toSVG()
  } finally {
    view.finalize()
  }
}

/**
 * Render `charts` (name → spec) into `dir/charts/<name>.svg` and return the Markdown that shows them (an image per
 * chart, paths relative to `dir`), or an empty string when nothing could be drawn.
 */
export async function chartsMarkdown(dir: string, charts: Record<string, ChartSpec>): Promise<string> {
  const lines: string[] = []
  for (const [name, chart] of Object.entries(charts)) {
    const svg = await renderChart(chart).catch((err: Error) => {
      process.stderr.write(`bench: chart ${name} not drawn: ${err.message}\n`)
      return null
    })
    if (svg === null) continue
    mkdirSync(join(dir, 'charts'), { recursive: true })
    writeFileSync(join(dir, 'charts', `${name}.svg`), svg)
    lines.push(`![${chart.title}](charts/${name}.svg)`)
  }
  return lines.length > 0 ? lines.join('\n\n') + '\n' : ''
}

// @ts-check
/** The bench's charts (`bench/results/charts/`), grouped by report, when the installation has them. */
import { api } from './api.js'
import { h, replace } from './elements.js'

/** @typedef {{ file: string, report: string, title: string }} Chart */

export class ChartsView {
  /** @param {HTMLElement} box */
  constructor(box) {
    this.box = box
    /** @type {Chart[] | null} */
    this.charts = null
  }

  /** The charts present (none when the bench has not drawn any here). */
  async list() {
    this.charts ??= /** @type {Chart[]} */ ((await api('GET', '/preview/charts', { prompt: false }).catch(() => ({ results: [] }))).results)
    return this.charts
  }

  async show() {
    const charts = await this.list()
    if (charts.length === 0) {
      replace(this.box, h('p', { class: 'muted' }, 'No bench charts in this installation: `npm run bench` draws them in bench/results/charts/.'))
      return
    }
    /** @type {Map<string, Chart[]>} */
    const reports = new Map()
    for (const c of charts) reports.set(c.report, [...(reports.get(c.report) ?? []), c])
    replace(this.box, [...reports].map(([report, list]) => h('section', { class: 'report', 'aria-label': `${report} report` },
      h('h3', {}, report),
      h('div', { class: 'chart-grid' }, list.map((c) => h('figure', {},
        h('img', { src: `/preview/charts/${encodeURIComponent(c.file)}`, alt: c.title, loading: 'lazy' }),
        h('figcaption', {}, h('a', { href: `/preview/charts/${encodeURIComponent(c.file)}` }, c.file))))))))
  }
}

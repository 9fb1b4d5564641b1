// @ts-check
/**
 * Indexing as it happens: the running batch's progress (`GET /batches?statuses=processing`: its steps, documents
 * processed out of received, the rate and time left estimated from successive polls) as a live bar, and the recent
 * tasks (`GET /tasks?limit=20`) with their status and duration. Polls only while the view is shown.
 */
import { api } from './api.js'
import { byId, h, replace } from './elements.js'
import { readableDuration } from './durations.js'
import { ProgressRate, humanSeconds } from './progress-rate.js'

export const POLL_MS = 500
/** Steps that count units (Meilisearch's atomic steps): their count is what the bar shows. */
const UNITS = new Set(['document', 'task', 'batch', 'payload', 'update file'])

/**
 * @typedef {{ currentStep: string, finished: number, total: number }} Step
 * @typedef {{ uid: number, progress: { steps: Step[], percentage: number } | null, stats: { totalNbTasks: number, types: Record<string, number>, indexUids: Record<string, number> }, startedAt: string }} BatchView
 */

/** @param {number} n */
const count = (n) => n.toLocaleString('en-US')

export class IndexingView {
  constructor() {
    this.box = byId('batch', HTMLElement)
    this.tasks = byId('tasks', HTMLTableSectionElement)
    this.error = byId('indexing-error', HTMLElement)
    this.rate = new ProgressRate()
    this.active = false
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    this.timer = undefined
  }

  start() {
    if (this.active) return
    this.active = true
    void this.poll()
  }

  stop() {
    this.active = false
    clearTimeout(this.timer)
  }

  async poll() {
    try {
      const [batches, tasks] = await Promise.all([
        api('GET', '/batches?statuses=processing&limit=1'),
        api('GET', '/tasks?limit=20'),
      ])
      this.renderBatch(batches.results[0] ?? null)
      this.renderTasks(tasks.results)
      this.error.hidden = true
    } catch (err) {
      this.error.hidden = false
      this.error.textContent = err instanceof Error ? err.message : String(err)
    }
    if (this.active) this.timer = setTimeout(() => void this.poll(), POLL_MS)
  }

  /** @param {BatchView | null} batch */
  renderBatch(batch) {
    if (!batch || !batch.progress) {
      replace(this.box, h('p', { class: 'muted' }, 'No batch is running.'))
      return
    }
    const steps = batch.progress.steps
    const last = steps[steps.length - 1]
    const counting = last !== undefined && UNITS.has(last.currentStep) && last.total > 0
    // The bar shows what a user waits for: the documents (or tasks) done out of all; once the batch writes its
    // tasks' results, its work is done. Other steps have no count: Meilisearch's overall percentage then.
    const writing = steps[0]?.currentStep === 'writing tasks to disk'
    const fraction = counting ? last.finished / last.total : writing ? 1 : batch.progress.percentage / 100
    const percent = Math.min(100, Math.max(0, fraction * 100))
    let figures = `${percent.toFixed(1)} %`
    if (counting) {
      this.rate.add(`${batch.uid}/${steps.map((s) => s.currentStep).join('/')}/${last.total}`, last.finished, performance.now())
      const rate = this.rate.rate()
      const left = this.rate.secondsLeft(last.total)
      figures = `${count(last.finished)} of ${count(last.total)} ${last.currentStep}s · ${figures}`
      if (rate !== null) figures += ` · ${count(Math.round(rate))} ${last.currentStep}s/s`
      if (left !== null) figures += ` · about ${humanSeconds(left)} left`
    }
    const indexes = Object.keys(batch.stats.indexUids)
    const types = Object.entries(batch.stats.types).map(([type, n]) => `${type}${n > 1 ? ` ×${n}` : ''}`)
    replace(this.box,
      h('h3', {}, `Batch ${batch.uid}`, indexes.length ? ` · ${indexes.join(', ')}` : '', ` · ${types.join(', ')}`),
      h('p', { class: 'steps', 'aria-label': 'Steps' }, steps.map((s, i) => [i > 0 ? ' › ' : '', h('span', {}, s.currentStep)])),
      h('div', {
        class: 'progress', role: 'progressbar', 'aria-label': `Batch ${batch.uid} progress`,
        'aria-valuemin': 0, 'aria-valuemax': 100, 'aria-valuenow': percent.toFixed(1), 'aria-valuetext': figures,
      }, bar(percent)),
      h('p', { class: 'figures' }, figures),
      h('p', { class: 'muted' }, `Overall ${batch.progress.percentage.toFixed(1)} % (as Meilisearch weighs the steps) · started ${new Date(batch.startedAt).toLocaleTimeString()}`))
  }

  /** @param {any[]} tasks */
  renderTasks(tasks) {
    if (tasks.length === 0) {
      replace(this.tasks, h('tr', {}, h('td', { colspan: 7, class: 'muted' }, 'No tasks yet.')))
      return
    }
    replace(this.tasks, tasks.map((t) => {
      const d = t.details ?? {}
      const docs = d.indexedDocuments ?? d.receivedDocuments ?? d.deletedDocuments ?? d.editedDocuments
      return h('tr', { 'data-task': t.uid },
        h('td', {}, String(t.uid)),
        h('td', {}, t.indexUid ?? '—'),
        h('td', {}, t.type),
        h('td', {}, h('span', { class: `status status-${t.status}`, title: t.error?.message ?? null }, t.status)),
        h('td', { class: 'num' }, typeof docs === 'number' ? count(docs) : '—'),
        h('td', { class: 'num' }, t.duration ? readableDuration(t.duration) : '—'),
        h('td', {}, new Date(t.enqueuedAt).toLocaleTimeString()))
    }))
  }
}

/** @param {number} percent */
function bar(percent) {
  const fill = h('div', { class: 'fill' })
  // A style property set from script is allowed by the page's CSP; an inline style attribute would not be.
  fill.style.width = `${percent}%`
  return fill
}

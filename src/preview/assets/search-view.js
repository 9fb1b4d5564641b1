// @ts-check
/**
 * Search as you type on one index: hits with their highlights and ranking score (and, on demand, the score's
 * details per rule), the processing time and estimated total, paging, facet counts that add filters, the filter
 * and sort boxes with the server's own error shown beside them, and hybrid search when the index has embedders.
 */
import { ApiError, api, indexPath } from './api.js'
import { byId, h, replace } from './elements.js'
import { FacetPanel } from './facets.js'
import { POST_TAG, PRE_TAG, highlighted } from './highlight.js'
import { HYBRID_ERRORS, HybridControls } from './hybrid.js'
import { rankingDetails, scoreMeter } from './ranking.js'

export const HITS_PER_PAGE = 10
/** Typing pauses this long before a search goes out; a newer search cancels the one in flight. */
const DEBOUNCE_MS = 120
/** Fields shown per hit besides its title. */
const FIELDS_SHOWN = 6
const TITLE_FIELDS = ['title', 'name', 'label', 'headline', 'subject']

/**
 * `year:desc, _geoPoint(1, 2):asc` → its sort rules (commas inside parentheses do not split).
 * @param {string} text
 */
export function sortRules(text) {
  return text.split(/,(?![^(]*\))/).map((s) => s.trim()).filter(Boolean)
}

/**
 * @param {HTMLInputElement | HTMLSelectElement} input
 * @param {HTMLElement} message
 * @param {string | null} text
 */
function fieldError(input, message, text) {
  message.textContent = text ?? ''
  if (text) input.setAttribute('aria-invalid', 'true')
  else input.removeAttribute('aria-invalid')
}

export class SearchView {
  constructor() {
    this.q = byId('q', HTMLInputElement)
    this.filter = byId('filter', HTMLInputElement)
    this.sort = byId('sort', HTMLInputElement)
    this.explain = byId('explain', HTMLInputElement)
    this.filterError = byId('filter-error', HTMLElement)
    this.sortError = byId('sort-error', HTMLElement)
    this.summary = byId('summary', HTMLElement)
    this.error = byId('search-error', HTMLElement)
    this.hits = byId('hits', HTMLOListElement)
    this.prev = byId('prev', HTMLButtonElement)
    this.next = byId('next', HTMLButtonElement)
    this.pageLabel = byId('page-label', HTMLElement)
    /** @type {string | null} */
    this.uid = null
    this.primaryKey = /** @type {string | null} */ (null)
    this.faceted = true
    this.page = 0
    this.seq = 0
    /** @type {AbortController | null} */
    this.inFlight = null
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    this.timer = undefined
    const fromFirstPage = () => { this.page = 0; this.schedule() }
    this.facets = new FacetPanel(byId('facet-lists', HTMLElement), byId('active-filters', HTMLElement), fromFirstPage)
    this.hybrid = new HybridControls(fromFirstPage)
    for (const input of [this.q, this.filter, this.sort]) input.addEventListener('input', fromFirstPage)
    this.explain.addEventListener('change', () => this.schedule(0))
    this.prev.addEventListener('click', () => { this.page = Math.max(0, this.page - 1); this.schedule(0) })
    this.next.addEventListener('click', () => { this.page++; this.schedule(0) })
    byId('search-form', HTMLFormElement).addEventListener('submit', (e) => { e.preventDefault(); this.schedule(0) })
  }

  /**
   * Switch to index `uid`: its primary key, filterable attributes and embedders (what the key may read of them).
   * @param {string | null} uid
   */
  async setIndex(uid) {
    this.uid = uid
    this.page = 0
    this.facets.clear()
    if (uid === null) {
      this.hybrid.setEmbedders([])
      replace(this.hits)
      this.summary.textContent = 'No index to search yet: add documents to one.'
      this.updatePager(0, 0)
      return
    }
    const [index, settings] = await Promise.all([
      api('GET', indexPath(uid), { prompt: false }).catch(() => null),
      // A search-only key may not read settings: then facets are still asked for (`*`), hybrid is not offered.
      api('GET', `${indexPath(uid)}/settings`, { prompt: false }).catch(() => null),
    ])
    if (this.uid !== uid) return
    this.primaryKey = index?.primaryKey ?? null
    this.faceted = settings ? (settings.filterableAttributes ?? []).length > 0 : true
    this.hybrid.setEmbedders(settings?.embedders ? Object.keys(settings.embedders) : [])
    await this.run()
  }

  /** @param {number} [delay] */
  schedule(delay = DEBOUNCE_MS) {
    clearTimeout(this.timer)
    this.timer = setTimeout(() => void this.run(), delay)
  }

  /** The search request for the current inputs. */
  request() {
    // The filter goes as typed (not trimmed): the positions in the server's error message are the user's.
    const typed = this.filter.value.trim() === '' ? [] : [this.filter.value]
    const filters = [...typed, ...this.facets.filters()]
    const sort = sortRules(this.sort.value)
    return {
      q: this.q.value,
      offset: this.page * HITS_PER_PAGE,
      limit: HITS_PER_PAGE,
      attributesToHighlight: ['*'],
      highlightPreTag: PRE_TAG,
      highlightPostTag: POST_TAG,
      attributesToCrop: ['*'],
      cropLength: 30,
      showRankingScore: true,
      showRankingScoreDetails: this.explain.checked,
      facets: ['*'],
      ...(filters.length > 0 ? { filter: filters } : {}),
      ...(sort.length > 0 ? { sort } : {}),
      ...(this.hybrid.value() ? { hybrid: this.hybrid.value() } : {}),
    }
  }

  async run() {
    const uid = this.uid
    if (uid === null) return
    this.inFlight?.abort()
    const abort = (this.inFlight = new AbortController())
    const seq = ++this.seq
    const body = this.request()
    /** @type {string | null} */
    let hybridError = null
    let result
    try {
      try {
        result = await api('POST', `${indexPath(uid)}/search`, { body, signal: abort.signal })
      } catch (err) {
        // Vector search may be unavailable (no vectors yet, an embedder that fails): say so, and keep searching.
        if (!(err instanceof ApiError) || !body.hybrid || !HYBRID_ERRORS.has(err.code ?? '')) throw err
        hybridError = err.message
        const { hybrid: _, ...keywordOnly } = body
        result = await api('POST', `${indexPath(uid)}/search`, { body: keywordOnly, signal: abort.signal })
      }
    } catch (err) {
      if (abort.signal.aborted || seq !== this.seq) return
      this.showError(err)
      return
    }
    if (seq !== this.seq) return
    this.hybrid.showError(hybridError)
    this.showError(null)
    this.render(result)
  }

  /** @param {unknown} err */
  showError(err) {
    const code = err instanceof ApiError ? err.code : null
    const message = err instanceof Error ? err.message : null
    fieldError(this.filter, this.filterError, code === 'invalid_search_filter' ? message : null)
    fieldError(this.sort, this.sortError, code === 'invalid_search_sort' ? message : null)
    const elsewhere = err !== null && code !== 'invalid_search_filter' && code !== 'invalid_search_sort'
    if (elsewhere && HYBRID_ERRORS.has(code ?? '')) this.hybrid.showError(message)
    this.error.hidden = !elsewhere
    this.error.textContent = elsewhere ? `${message}${code ? ` (${code})` : ''}` : ''
    if (err !== null) this.summary.textContent = 'The search failed.'
  }

  /** @param {any} result the search response */
  render(result) {
    const total = result.estimatedTotalHits ?? result.totalHits ?? 0
    const semantic = typeof result.semanticHitCount === 'number' ? `, ${result.semanticHitCount} of them from semantic search` : ''
    this.summary.textContent = `${total.toLocaleString()} hit${total === 1 ? '' : 's'} (estimated) in ${result.processingTimeMs} ms${semantic}`
    replace(this.hits, result.hits.map((/** @type {any} */ hit, /** @type {number} */ i) => this.hit(hit, result.offset + i + 1)))
    if (result.hits.length === 0) replace(this.hits, h('li', { class: 'muted empty' }, 'No documents match.'))
    this.facets.render(result.facetDistribution, result.facetStats, this.faceted)
    this.updatePager(total, result.hits.length)
  }

  /**
   * @param {number} total
   * @param {number} shown
   */
  updatePager(total, shown) {
    const pages = Math.max(1, Math.ceil(total / HITS_PER_PAGE))
    this.prev.disabled = this.page === 0
    this.next.disabled = this.page * HITS_PER_PAGE + shown >= total
    this.pageLabel.textContent = `Page ${this.page + 1} of ${pages > this.page + 1 ? 'about ' : ''}${Math.max(pages, this.page + 1)}`
  }

  /**
   * @param {any} hit
   * @param {number} rank
   */
  hit(hit, rank) {
    const formatted = hit._formatted ?? hit
    const fields = Object.keys(hit).filter((k) => !k.startsWith('_'))
    const titleField = TITLE_FIELDS.find((f) => f in hit) ?? fields.find((f) => typeof hit[f] === 'string' && f !== this.primaryKey)
    const id = this.primaryKey !== null ? hit[this.primaryKey] : undefined
    const shown = fields.filter((f) => f !== titleField && f !== this.primaryKey).slice(0, FIELDS_SHOWN)
    return h('li', { class: 'hit' },
      h('div', { class: 'hit-head' },
        h('span', { class: 'rank', 'aria-label': `rank ${rank}` }, `#${rank}`),
        h('h3', { class: 'hit-title' }, titleField ? highlighted(formatted[titleField]) : `Document ${id ?? ''}`),
        scoreMeter(hit._rankingScore)),
      id !== undefined ? h('p', { class: 'muted id' }, `${this.primaryKey}: ${id}`) : null,
      shown.length > 0 ? h('dl', { class: 'fields' }, shown.map((f) => [h('dt', {}, f), h('dd', {}, highlighted(formatted[f] ?? hit[f]))])) : null,
      hit._rankingScoreDetails ? rankingDetails(hit._rankingScoreDetails) : null)
  }
}

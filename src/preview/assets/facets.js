// @ts-check
/**
 * Facet counts as lists of buttons: pressing a value adds `attribute = "value"` to the search's filter (ANDed with
 * the filter box), pressing it again (or its chip) removes it.
 */
import { h, replace } from './elements.js'

/** Values shown per facet before "show more". */
const SHOWN = 8

/**
 * A filter expression naming the value exactly (quotes and backslashes escaped, as Meilisearch's filter syntax
 * reads them).
 * @param {string} attribute
 * @param {string} value
 */
export function facetFilter(attribute, value) {
  const name = /^[A-Za-z0-9_.-]+$/.test(attribute) ? attribute : `"${attribute.replace(/(["\\])/g, '\\$1')}"`
  return `${name} = "${value.replace(/(["\\])/g, '\\$1')}"`
}

export class FacetPanel {
  /**
   * @param {HTMLElement} lists where the facet lists go
   * @param {HTMLElement} chips where the applied values go
   * @param {() => void} onChange called when the applied values change
   */
  constructor(lists, chips, onChange) {
    this.lists = lists
    this.chips = chips
    this.onChange = onChange
    /** @type {{ attribute: string, value: string }[]} */
    this.applied = []
    /** @type {Set<string>} facets the user expanded */
    this.expanded = new Set()
  }

  /** The filters of the applied values, one expression each (the search ANDs them). */
  filters() {
    return this.applied.map((f) => facetFilter(f.attribute, f.value))
  }

  clear() {
    this.applied = []
    this.renderChips()
  }

  /**
   * @param {string} attribute
   * @param {string} value
   */
  isApplied(attribute, value) {
    return this.applied.some((f) => f.attribute === attribute && f.value === value)
  }

  /**
   * @param {string} attribute
   * @param {string} value
   */
  toggle(attribute, value) {
    this.applied = this.isApplied(attribute, value)
      ? this.applied.filter((f) => !(f.attribute === attribute && f.value === value))
      : [...this.applied, { attribute, value }]
    this.renderChips()
    this.onChange()
  }

  renderChips() {
    replace(this.chips, this.applied.map((f) => h('li', {},
      h('button', { type: 'button', class: 'chip', 'aria-label': `Remove filter ${f.attribute} = ${f.value}`, onclick: () => this.toggle(f.attribute, f.value) },
        `${f.attribute}: ${f.value}`, h('span', { 'aria-hidden': 'true' }, ' ×')))))
  }

  /**
   * @param {Record<string, Record<string, number>> | undefined} distribution the search's `facetDistribution`
   * @param {Record<string, { min: number, max: number }> | undefined} stats its `facetStats`
   * @param {boolean} faceted whether the index has filterable attributes at all
   */
  render(distribution, stats, faceted) {
    const names = Object.keys(distribution ?? {})
    if (!faceted || names.length === 0) {
      replace(this.lists, h('p', { class: 'muted' }, faceted ? 'No facet values for these hits.' : 'No filterable attributes.'))
      return
    }
    replace(this.lists, names.map((attribute) => {
      const values = Object.entries(distribution?.[attribute] ?? {})
      const open = this.expanded.has(attribute)
      const range = stats?.[attribute]
      const headingId = `facet-${attribute.replace(/[^A-Za-z0-9_-]/g, '_')}`
      return h('section', { class: 'facet', 'aria-labelledby': headingId },
        h('h4', { id: headingId }, attribute, range ? h('span', { class: 'muted' }, ` ${range.min} – ${range.max}`) : null),
        h('ul', {}, (open ? values : values.slice(0, SHOWN)).map(([value, count]) => h('li', {},
          h('button', {
            type: 'button',
            class: 'facet-value',
            'aria-pressed': this.isApplied(attribute, value) ? 'true' : 'false',
            'data-attribute': attribute,
            'data-value': value,
            onclick: () => this.toggle(attribute, value),
          }, h('span', { class: 'facet-name' }, value), h('span', { class: 'count' }, count.toLocaleString()))))),
        values.length > SHOWN
          ? h('button', {
            type: 'button', class: 'link', 'aria-expanded': open ? 'true' : 'false',
            onclick: () => { open ? this.expanded.delete(attribute) : this.expanded.add(attribute); this.render(distribution, stats, faceted) },
          }, open ? 'Show fewer' : `Show all ${values.length}`)
          : null)
    }))
  }
}

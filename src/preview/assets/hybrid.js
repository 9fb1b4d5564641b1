// @ts-check
/**
 * Hybrid search controls, shown when the index has embedders (its settings' `embedders`): which embedder, and how
 * much of the ranking is semantic (`hybrid: {embedder, semanticRatio}`). Hidden otherwise.
 */
import { byId, h, replace } from './elements.js'

/** Errors that concern the hybrid part of a search: shown beside these controls. */
export const HYBRID_ERRORS = new Set([
  'invalid_search_embedder', 'invalid_search_hybrid_query', 'invalid_search_semantic_ratio', 'invalid_search_vector',
  'missing_search_hybrid', 'invalid_embedder', 'vector_embedding_error', 'invalid_search_media', 'feature_not_enabled',
])

export class HybridControls {
  /** @param {() => void} onChange */
  constructor(onChange) {
    this.box = byId('hybrid', HTMLFieldSetElement)
    this.embedder = byId('embedder', HTMLSelectElement)
    this.ratio = byId('ratio', HTMLInputElement)
    this.ratioValue = byId('ratio-value', HTMLOutputElement)
    this.error = byId('hybrid-error', HTMLElement)
    this.embedder.addEventListener('change', onChange)
    this.ratio.addEventListener('input', () => {
      this.ratioValue.value = Number(this.ratio.value).toFixed(2)
      onChange()
    })
  }

  /** @param {string[]} names the index's embedders (none: the controls hide) */
  setEmbedders(names) {
    this.box.hidden = names.length === 0
    replace(this.embedder, h('option', { value: '' }, 'Keyword only'), names.map((n) => h('option', { value: n }, n)))
    // An index with embedders is searched semantically too unless the user says otherwise.
    this.embedder.value = names[0] ?? ''
    this.showError(null)
  }

  /** The `hybrid` parameter, or undefined for a keyword search. */
  value() {
    if (this.box.hidden || this.embedder.value === '') return undefined
    return { embedder: this.embedder.value, semanticRatio: Number(this.ratio.value) }
  }

  /** @param {string | null} message */
  showError(message) {
    this.error.textContent = message ? `${message} Showing keyword results.` : ''
    this.embedder.toggleAttribute('aria-invalid', message !== null)
  }
}

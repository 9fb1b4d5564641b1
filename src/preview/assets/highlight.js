// @ts-check
/**
 * Highlights from `_formatted`, made into text and `<mark>` nodes. The search asks for highlight tags that no
 * document text contains (two control characters) so the page never has to parse a document's text as HTML.
 */
import { h } from './elements.js'

export const PRE_TAG = '\u0001'
export const POST_TAG = '\u0002'

/**
 * @param {unknown} value a field of `_formatted` (a string, a number, an array or an object of them)
 * @returns {DocumentFragment}
 */
export function highlighted(value) {
  const out = document.createDocumentFragment()
  const text = typeof value === 'string' ? value : JSON.stringify(value) ?? ''
  let marked = false
  for (const part of text.split(new RegExp(`([${PRE_TAG}${POST_TAG}])`))) {
    if (part === PRE_TAG) marked = true
    else if (part === POST_TAG) marked = false
    else if (part !== '') out.appendChild(marked ? h('mark', {}, part) : document.createTextNode(part))
  }
  return out
}

/**
 * The text without the highlight tags (for labels and alt texts).
 * @param {unknown} value
 */
export function plain(value) {
  const text = typeof value === 'string' ? value : JSON.stringify(value) ?? ''
  return text.replaceAll(PRE_TAG, '').replaceAll(POST_TAG, '')
}

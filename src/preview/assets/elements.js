// @ts-check
/**
 * Building DOM nodes in one expression. Text always goes in as text (`textContent`), never as HTML: the page
 * shows documents, and a document is not trusted markup.
 */

/**
 * @typedef {string | number | boolean | null | undefined} AttrValue
 * @typedef {Node | string | number | null | undefined | false} Child
 * @typedef {Child | Child[] | Child[][]} Children
 */

/**
 * An element with attributes (`class`, `aria-*`, `data-*`, `hidden`, ...; `false`/`null`/`undefined` leave one
 * out; `on*` functions become listeners) and children (strings become text nodes; `null`/`false` are skipped).
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Record<string, AttrValue | EventListener>} [attrs]
 * @param {...Children} children
 * @returns {HTMLElementTagNameMap[K]}
 */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag)
  for (const [name, value] of Object.entries(attrs)) {
    if (typeof value === 'function') el.addEventListener(name.slice(2).toLowerCase(), value)
    else if (value === true) el.setAttribute(name, '')
    else if (value !== false && value !== null && value !== undefined) el.setAttribute(name, String(value))
  }
  append(el, children)
  return el
}

/**
 * @param {Node} parent
 * @param {Children[]} children
 */
export function append(parent, children) {
  for (const child of children.flat(2)) {
    if (child === null || child === undefined || child === false) continue
    parent.appendChild(typeof child === 'object' ? child : document.createTextNode(String(child)))
  }
}

/**
 * Replace the children of `parent`.
 * @param {Node} parent
 * @param {...Children} children
 */
export function replace(parent, ...children) {
  parent.textContent = ''
  append(parent, children)
}

/**
 * The element with this id, typed by the caller (the page's markup is fixed: a missing one is a bug).
 * @template {HTMLElement} T
 * @param {string} id
 * @param {new () => T} type
 * @returns {T}
 */
export function byId(id, type) {
  const el = document.getElementById(id)
  if (!(el instanceof type)) throw new Error(`#${id} is not a ${type.name}`)
  return el
}

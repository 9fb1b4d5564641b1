// @ts-check
/**
 * The API key the page sends: asked for when the server answers 401/403, kept in this tab's session storage only
 * (never in local storage or a cookie), dropped on request.
 */
import { byId } from './elements.js'

const STORAGE_KEY = 'tessera.apiKey'

/** @type {Set<() => void>} */
const listeners = new Set()

/** @returns {string | null} */
export function currentKey() {
  try {
    return sessionStorage.getItem(STORAGE_KEY)
  } catch {
    return null // storage disabled: the page still works without a key
  }
}

/** @param {string | null} key */
export function setKey(key) {
  try {
    if (key === null) sessionStorage.removeItem(STORAGE_KEY)
    else sessionStorage.setItem(STORAGE_KEY, key)
  } catch { /* storage disabled */ }
  for (const listener of listeners) listener()
}

/** @param {() => void} listener called when the key changes */
export function onKeyChange(listener) {
  listeners.add(listener)
}

/** @type {Promise<boolean> | null} */
let asking = null

/**
 * Ask for a key, `reason` being what the server said. Requests refused at the same time share one prompt.
 * @param {string} reason
 * @returns {Promise<boolean>} true once a key was entered, false when the user cancels
 */
export function askForKey(reason) {
  asking ??= new Promise((resolve) => {
    const dialog = byId('key-dialog', HTMLDialogElement)
    const form = byId('key-form', HTMLFormElement)
    const input = byId('key-input', HTMLInputElement)
    const cancel = byId('key-cancel', HTMLButtonElement)
    byId('key-reason', HTMLElement).textContent = reason
    input.value = ''
    /** @param {boolean} entered */
    const done = (entered) => {
      form.removeEventListener('submit', submit)
      cancel.removeEventListener('click', dismiss)
      dialog.removeEventListener('cancel', dismiss)
      if (dialog.open) dialog.close()
      asking = null
      resolve(entered)
    }
    /** @param {Event} event */
    const submit = (event) => {
      event.preventDefault()
      const key = input.value.trim()
      if (!key) return
      // Resolve before the listeners run: they send requests, which must not join this finished prompt.
      done(true)
      setKey(key)
    }
    /** @param {Event} event */
    const dismiss = (event) => {
      event.preventDefault()
      done(false)
    }
    form.addEventListener('submit', submit)
    cancel.addEventListener('click', dismiss)
    dialog.addEventListener('cancel', dismiss)
    dialog.showModal()
    input.focus()
  })
  return asking
}

// @ts-check
/**
 * The preview page: three views behind hash links (`#/search`, `#/indexing`, `#/charts`), the index picker
 * (`GET /indexes`: only the indexes the key may see) and the key in the header.
 */
import { api } from './api.js'
import { ChartsView } from './charts-view.js'
import { byId, h, replace } from './elements.js'
import { IndexingView } from './indexing-view.js'
import { askForKey, currentKey, onKeyChange, setKey } from './keys.js'
import { SearchView } from './search-view.js'

const VIEWS = ['search', 'indexing', 'charts']
const CHOSEN_INDEX = 'tessera.index'

const search = new SearchView()
const indexing = new IndexingView()
const charts = new ChartsView(byId('charts', HTMLElement))
const picker = byId('index', HTMLSelectElement)

function currentView() {
  const name = location.hash.replace(/^#\/?/, '')
  return VIEWS.includes(name) ? name : 'search'
}

function showView() {
  const view = currentView()
  for (const section of document.querySelectorAll('main > section')) {
    if (section instanceof HTMLElement) section.hidden = section.dataset.view !== view
  }
  for (const link of document.querySelectorAll('.tabs a')) {
    if (link instanceof HTMLElement) {
      if (link.dataset.view === view) link.setAttribute('aria-current', 'page')
      else link.removeAttribute('aria-current')
    }
  }
  if (view === 'indexing') indexing.start()
  else indexing.stop()
  if (view === 'charts') void charts.show()
}

/** Fill the index picker and search the chosen index. */
async function loadIndexes() {
  /** @type {{ uid: string }[]} */
  let indexes
  try {
    indexes = (await api('GET', '/indexes?limit=1000')).results
  } catch (err) {
    replace(picker)
    search.summary.textContent = `Cannot list the indexes: ${err instanceof Error ? err.message : err}`
    return
  }
  const remembered = sessionStorage.getItem(CHOSEN_INDEX)
  replace(picker, indexes.map((i) => h('option', { value: i.uid }, i.uid)))
  const chosen = indexes.find((i) => i.uid === remembered)?.uid ?? indexes[0]?.uid ?? null
  if (chosen !== null) picker.value = chosen
  await search.setIndex(chosen)
}

function showKeyState() {
  const set = currentKey() !== null
  byId('key-label', HTMLElement).textContent = set ? 'API key set' : 'No API key'
  byId('key-change', HTMLButtonElement).textContent = set ? 'Change key' : 'Enter key'
  byId('key-forget', HTMLButtonElement).hidden = !set
}

picker.addEventListener('change', () => {
  sessionStorage.setItem(CHOSEN_INDEX, picker.value)
  void search.setIndex(picker.value)
})
byId('key-change', HTMLButtonElement).addEventListener('click', async () => {
  if (await askForKey('')) void loadIndexes()
})
byId('key-forget', HTMLButtonElement).addEventListener('click', () => {
  setKey(null)
  void loadIndexes()
})
onKeyChange(showKeyState)
// `/` jumps to the search box, as on many search pages (not while typing elsewhere).
document.addEventListener('keydown', (event) => {
  const target = event.target
  if (event.key !== '/' || event.ctrlKey || event.metaKey || event.altKey) return
  if (target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return
  event.preventDefault()
  location.hash = '#/search'
  search.q.focus()
})
window.addEventListener('hashchange', showView)

showKeyState()
showView()
void charts.list().then((list) => { byId('charts-tab', HTMLElement).hidden = list.length === 0 })
void loadIndexes()

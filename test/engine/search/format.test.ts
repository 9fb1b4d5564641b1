/**
 * engine/search/format.ts and engine/search/pagination.ts: highlight and crop (expected strings are Meilisearch's
 * own snapshots from `crates/milli/src/search/new/matches/mod.rs` tests: format_identity, format_highlight,
 * highlight_unicode, format_crop, format_highlight_crop, format_highlight_crop_phrase_query, smaller_crop_size,
 * partial_matches), hit shaping (`crates/meilisearch/tests/search/formatted.rs`), `_matchesPosition` byte offsets,
 * the response key order, and the pagination arithmetic of `prepare_search`/`perform_search`.
 *
 * The tokenizer and matcher below are test doubles imitating charabia + milli's matcher on Latin text: words are
 * runs of letters/digits; `. `, `, `, `! `, `? `, `; ` and `.,;!?()[]{}|` are hard separators, other punctuation
 * and whitespace runs soft; matching compares accent-folded lowercase text; the last query word is a prefix.
 */
import t from 'tap'
import {
  formatHit, formatText, hitObject, matchBounds, searchResponse, selectValues,
  type AnalyzedText, type FormatHitOptions, type TextAnalyzer, type TextMatch, type TextToken,
} from '../../../engine/search/format.js'
import { hitsInfo, searchWindow, DEFAULT_MAX_TOTAL_HITS } from '../../../engine/search/pagination.js'

// ---- test doubles --------------------------------------------------------------------------------------------------

const byteLength = (s: string) => Buffer.byteLength(s, 'utf8')
const fold = (c: string) => c.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase()

interface DoubleToken extends TextToken { text: string }

function tokenize(text: string): DoubleToken[] {
  const tokens: DoubleToken[] = []
  let i = 0
  let byte = 0
  const chars = [...text]
  while (i < chars.length) {
    let j = i + 1
    let kind: 'word' | 'soft' | 'hard'
    const c = chars[i]!
    if (/[\p{L}\p{N}]/u.test(c)) {
      while (j < chars.length && /[\p{L}\p{N}]/u.test(chars[j]!)) j++
      kind = 'word'
    } else if (/[.,!?;]/.test(c) && chars[i + 1] === ' ') {
      j = i + 2
      kind = 'hard'
    } else if (/\s/u.test(c)) {
      while (j < chars.length && /\s/u.test(chars[j]!)) j++
      kind = 'soft'
    } else {
      kind = /[.,;!?()[\]{}|]/.test(c) ? 'hard' : 'soft'
    }
    const piece = chars.slice(i, j).join('')
    const len = byteLength(piece)
    tokens.push(kind === 'word' ? { start: byte, end: byte + len, text: piece } : { start: byte, end: byte + len, separator: kind, text: piece })
    byte += len
    i = j
  }
  return tokens
}

/** Query: bare words and "quoted phrases"; ids are query positions; the last bare word (if last) is a prefix. */
function analyzer(query: string): TextAnalyzer {
  const parts: { words: string[]; ids: number[]; prefix: boolean }[] = []
  let position = 0
  const re = /"([^"]*)"|([^\s"]+)/g
  let m: RegExpExecArray | null
  while ((m = re.exec(query)) !== null) {
    const words = (m[1] ?? m[2]!).split(/[^\p{L}\p{N}]+/u).filter((w) => w !== '').map((w) => [...w].map(fold).join(''))
    if (words.length === 0) continue
    parts.push({ words, ids: words.map((_, k) => position + k), prefix: m[2] !== undefined && re.lastIndex === query.length })
    position += words.length
  }
  return (text) => {
    const tokens = tokenize(text)
    const words = tokens.map((tk, i) => ({ tk, i })).filter(({ tk }) => tk.separator === undefined)
    const matches: TextMatch[] = []
    let w = 0
    outer: while (w < words.length) {
      const folded = (k: number) => [...words[k]!.tk.text].map(fold).join('')
      // phrases first (several words), then single words
      for (const part of [...parts].sort((a, b) => b.words.length - a.words.length)) {
        if (part.words.length > 1) {
          if (part.words.every((pw, k) => w + k < words.length && folded(w + k) === pw)) {
            const first = words[w]!.tk
            const last = words[w + part.words.length - 1]!.tk
            matches.push({ start: first.start, length: last.end - first.start, ids: part.ids })
            w += part.words.length
            continue outer
          }
        } else {
          const word = words[w]!.tk
          const chars = [...word.text]
          const f = chars.map(fold)
          const target = part.words[0]!
          if (f.join('') === target) {
            matches.push({ start: word.start, length: word.end - word.start, ids: part.ids })
            w++
            continue outer
          }
          if (part.prefix && f.join('').startsWith(target)) {
            // the original characters whose folded forms make up the prefix
            let n = 0
            let acc = ''
            while (acc.length < target.length) acc += f[n++]!
            matches.push({ start: word.start, length: byteLength(chars.slice(0, n).join('')), ids: part.ids })
            w++
            continue outer
          }
        }
      }
      w++
    }
    return { tokens, matches }
  }
}

const markers = { highlightPreTag: '<em>', highlightPostTag: '</em>', cropMarker: '…' }
const format = (query: string, text: string, highlight: boolean, crop: number | null, m = markers) => formatText(text, analyzer(query)(text, 'f'), { highlight, crop }, m)

// ---- formatText: Meilisearch's matcher snapshots --------------------------------------------------------------------

const SOME = 'Natalie risk her future to build a world with the boy she loves.'
const ALL = 'Natalie risk her future to build a world with the boy she loves. Emily Henry: The Love That Split The World.'
const NONE = 'A quick brown fox can not jump 32 feet, right? Brr, it is cold!'

t.test('format_identity: no highlight, no crop returns the text', async (t) => {
  for (const text of [NONE, ALL, SOME]) t.equal(format('split the world', text, false, null), text)
})

t.test('format_highlight', async (t) => {
  t.equal(format('split the world', '', true, null), '')
  t.equal(format('split the world', ':-)', true, null), ':-)')
  t.equal(format('split the world', NONE, true, null), NONE)
  t.equal(format('split the world', ALL, true, null), 'Natalie risk her future to build a <em>world</em> with <em>the</em> boy she loves. Emily Henry: <em>The</em> Love That <em>Split</em> <em>The</em> <em>World</em>.')
  t.equal(format('split the world', SOME, true, null), 'Natalie risk her future to build a <em>world</em> with <em>the</em> boy she loves.')
})

t.test('highlight_unicode: prefix highlights on multi-byte text', async (t) => {
  t.equal(format('world', 'Ŵôřlḑôle', true, null), '<em>Ŵôřlḑ</em>ôle')
  t.equal(format('world', 'Ŵôřlḑ', true, null), '<em>Ŵôřlḑ</em>')
  t.equal(format('westfali', 'Westfália', true, null), '<em>Westfáli</em>a')
})

t.test('format_crop', async (t) => {
  const q = 'split the world'
  t.equal(format(q, '', false, 10), '')
  t.equal(format(q, ':-)', false, 10), ':-)')
  t.equal(format(q, NONE, false, 10), 'A quick brown fox can not jump 32 feet, right…')
  t.equal(format(q, '(A quick brown fox can not jump 32 feet, right? Brr, it is cold!)', false, 10), '(A quick brown fox can not jump 32 feet, right…')
  // phrase propagation: crop the words after the matches rather than cross the hard separator before them
  t.equal(format(q, 'Natalie risk her future. Split The World is a book written by Emily Henry. I never read it.', false, 10), '…Split The World is a book written by Emily Henry…')
  t.equal(format(q, SOME, false, 10), '…future to build a world with the boy she loves…')
  t.equal(format(q, ALL, false, 10), '…she loves. Emily Henry: The Love That Split The World.')
  t.equal(format(q, 'The world split void void void void void void void void void split the world void void', false, 10), '…void void void void void split the world void void')
  t.equal(format(q, 'split void the void void world void void void void void void void void void void split the world void void', false, 10), '…void void void void void split the world void void')
  t.equal(format(q, 'split split split split split split void void void void void void void void void void split the world void void', false, 10), '…void void void void void split the world void void')
})

t.test('format_highlight_crop', async (t) => {
  const q = 'split the world'
  t.equal(format(q, '', true, 10), '')
  t.equal(format(q, ':-)', true, 10), ':-)')
  t.equal(format(q, NONE, true, 10), 'A quick brown fox can not jump 32 feet, right…')
  t.equal(format(q, SOME, true, 10), '…future to build a <em>world</em> with <em>the</em> boy she loves…')
  t.equal(format(q, ALL, true, 10), '…she loves. Emily Henry: <em>The</em> Love That <em>Split</em> <em>The</em> <em>World</em>.')
  t.equal(format(q, 'The world split void void void void void void void void void split the world void void', true, 10), '…void void void void void <em>split</em> <em>the</em> <em>world</em> void void')
})

t.test('format_highlight_crop_phrase_query (meilisearch#3975)', async (t) => {
  const text = 'The groundbreaking invention had the power to split the world between those who embraced progress and those who resisted change!'
  t.equal(format('"the world"', text, true, 10), '…the power to split <em>the world</em> between those who embraced…')
  t.equal(format('those "and those"', text, true, 10), '…world between <em>those</em> who embraced progress <em>and those</em> who resisted…')
  t.equal(format('"The groundbreaking invention had the power to split the world"', text, true, 10), '<em>The groundbreaking invention had the power to split the world</em>…')
  t.equal(format('"The groundbreaking invention had the power to split the world between those"', text, true, 10), '<em>The groundbreaking invention had the power to split the world</em>…')
  t.equal(format('"The groundbreaking invention" "embraced progress and those who resisted change!"', text, true, 10), '…between those who <em>embraced progress and those who resisted change</em>…')
  t.equal(format('"groundbreaking invention" "split the world between"', text, true, 10), '…<em>groundbreaking invention</em> had the power to <em>split the world between</em>…')
  t.equal(format('"groundbreaking invention" "had the power to split the world between those"', text, true, 10), '…<em>invention</em> <em>had the power to split the world between those</em>…')
})

t.test('smaller_crop_size', async (t) => {
  const text = 'void void split the world void void.'
  t.equal(format('split the world', text, false, 2), '…split the…')
  t.equal(format('split the world', text, false, 1), '…split…')
  t.equal(format('split the world', text, false, 0), text) // crop 0 is no crop
})

t.test('partial_matches (custom tags)', async (t) => {
  const m = { highlightPreTag: '_', highlightPostTag: '_', cropMarker: '…' }
  t.equal(format('the "t he" door "do or"', 'the do or die can\'t be he do and or isn\'t he', true, null, m), '_the_ _do or_ die can\'t be he do and or isn\'_t he_')
})

t.test('markers: empty crop marker, custom tags, multi-byte crop', async (t) => {
  t.equal(format('split the world', SOME, false, 10, { ...markers, cropMarker: '' }), 'future to build a world with the boy she loves')
  t.equal(format('split the world', SOME, true, 10, { highlightPreTag: '**', highlightPostTag: '**', cropMarker: '[...]' }), '[...]future to build a **world** with **the** boy she loves[...]')
  // multi-byte words around the match: offsets are bytes, output is whole characters
  const text = 'ééé ààà ñññ 日本 world çç ŵŵ øø ßß'
  t.equal(format('world', text, true, 3), '…日本 <em>world</em> çç…')
  t.equal(format('world', text, true, null), 'ééé ààà ñññ 日本 <em>world</em> çç ŵŵ øø ßß')
})

t.test('matchBounds: byte offsets, indices inside arrays', async (t) => {
  const a = analyzer('pésti')('le pésti de pésti', 'f')
  t.strictSame(matchBounds(a), [{ start: 3, length: 6 }, { start: 13, length: 6 }])
  t.strictSame(matchBounds(a, [1, 0]), [{ start: 3, length: 6, indices: [1, 0] }, { start: 13, length: 6, indices: [1, 0] }])
  // prefix match on multi-byte text: length is the bytes of the matched characters only
  t.strictSame(matchBounds(analyzer('world')('Ŵôřlḑôle', 'f')), [{ start: 0, length: byteLength('Ŵôřlḑ') }])
})

t.test('formatText takes matches in any order and ignores overlaps', async (t) => {
  const text = 'alpha beta gamma'
  const tokens = tokenize(text)
  const analyzed: AnalyzedText = { tokens, matches: [{ start: 11, length: 5 }, { start: 0, length: 5 }, { start: 2, length: 3 }] }
  t.equal(formatText(text, analyzed, { highlight: true, crop: null }, markers), '<em>alpha</em> beta <em>gamma</em>')
})

// ---- hits ----------------------------------------------------------------------------------------------------------

/** NESTED_DOCUMENTS[0] of Meilisearch's integration tests (`tests/common/mod.rs`). */
const NESTED = { id: 852, father: 'jean', mother: 'michelle', doggos: [{ name: 'bobby', age: 2 }, { name: 'buddy', age: 4 }], cattos: 'pésti' }

function hit(query: string, options: Partial<FormatHitOptions>, doc: Record<string, unknown> = NESTED) {
  const full: FormatHitOptions = {
    displayedAttributes: ['*'], attributesToRetrieve: null, attributesToHighlight: null, attributesToCrop: null,
    cropLength: 10, cropMarker: '…', highlightPreTag: '<em>', highlightPostTag: '</em>', showMatchesPosition: false,
    ...options,
  }
  return hitObject(formatHit(structuredClone(doc), full, analyzer(query)))
}

t.test('formatted.rs: formatted_contain_wildcard', async (t) => {
  const displayed = ['id', 'cattos']
  t.strictSame(hit('pésti', { displayedAttributes: displayed, attributesToRetrieve: ['father', 'mother'], attributesToHighlight: ['father', 'mother', '*'], attributesToCrop: ['doggos'], showMatchesPosition: true }), {
    _formatted: { id: '852', cattos: '<em>pésti</em>' },
    // Meilisearch reports bytes (its older snapshot said 5, the character count, before lengths became bytes)
    _matchesPosition: { cattos: [{ start: 0, length: 6 }] },
  })
  t.strictSame(hit('pésti', { displayedAttributes: displayed, attributesToRetrieve: ['*'] }), { id: 852, cattos: 'pésti' })
  t.strictSame(hit('pésti', { displayedAttributes: displayed, attributesToRetrieve: ['*'], attributesToHighlight: ['id'], showMatchesPosition: true }), {
    id: 852, cattos: 'pésti', _formatted: { id: '852', cattos: 'pésti' }, _matchesPosition: { cattos: [{ start: 0, length: 6 }] },
  })
  t.strictSame(hit('pésti', { displayedAttributes: displayed, attributesToRetrieve: ['*'], attributesToCrop: ['*'] }), { id: 852, cattos: 'pésti', _formatted: { id: '852', cattos: 'pésti' } })
  t.strictSame(hit('pésti', { displayedAttributes: displayed, attributesToCrop: ['*'] }), { id: 852, cattos: 'pésti', _formatted: { id: '852', cattos: 'pésti' } })
})

t.test('formatted.rs: format_nested', async (t) => {
  t.strictSame(hit('pésti', { attributesToRetrieve: ['doggos'] }), { doggos: [{ name: 'bobby', age: 2 }, { name: 'buddy', age: 4 }] })
  t.strictSame(hit('pésti', { attributesToRetrieve: ['doggos.name'] }), { doggos: [{ name: 'bobby' }, { name: 'buddy' }] })
  t.strictSame(hit('bobby', { attributesToRetrieve: ['doggos.name'], showMatchesPosition: true }), {
    doggos: [{ name: 'bobby' }, { name: 'buddy' }],
    _matchesPosition: { 'doggos.name': [{ start: 0, length: 5, indices: [0] }] },
  })
  t.strictSame(hit('pésti', { attributesToRetrieve: [], attributesToHighlight: ['doggos.name'] }), { _formatted: { doggos: [{ name: 'bobby' }, { name: 'buddy' }] } })
  t.strictSame(hit('pésti', { attributesToRetrieve: [], attributesToCrop: ['doggos.name'] }), { _formatted: { doggos: [{ name: 'bobby' }, { name: 'buddy' }] } })
  t.strictSame(hit('pésti', { attributesToRetrieve: ['doggos.name'], attributesToHighlight: ['doggos.age'] }), {
    doggos: [{ name: 'bobby' }, { name: 'buddy' }],
    _formatted: { doggos: [{ name: 'bobby', age: '2' }, { name: 'buddy', age: '4' }] },
  })
  t.strictSame(hit('pésti', { attributesToRetrieve: [], attributesToHighlight: ['doggos.age'], attributesToCrop: ['doggos.name'] }), {
    _formatted: { doggos: [{ name: 'bobby', age: '2' }, { name: 'buddy', age: '4' }] },
  })
})

t.test('formatted.rs: displayedattr_2_smol', async (t) => {
  const d = { displayedAttributes: ['id'] }
  t.strictSame(hit('', { ...d, attributesToRetrieve: ['father', 'id'], attributesToHighlight: ['mother'], attributesToCrop: ['cattos'] }), { id: 852 })
  t.strictSame(hit('', { ...d, attributesToRetrieve: ['id'] }), { id: 852 })
  t.strictSame(hit('', { ...d, attributesToHighlight: ['id'] }), { id: 852, _formatted: { id: '852' } })
  t.strictSame(hit('', { ...d, attributesToCrop: ['id'] }), { id: 852, _formatted: { id: '852' } })
  t.strictSame(hit('', { ...d, attributesToHighlight: ['id'], attributesToCrop: ['id'] }), { id: 852, _formatted: { id: '852' } })
  t.strictSame(hit('', { ...d, attributesToHighlight: ['cattos'] }), { id: 852 })
  t.strictSame(hit('', { ...d, attributesToCrop: ['cattos'] }), { id: 852 })
  t.strictSame(hit('', { ...d, attributesToRetrieve: ['cattos'] }), {})
  t.strictSame(hit('', { ...d, attributesToRetrieve: ['cattos'], attributesToHighlight: ['cattos'], attributesToCrop: ['cattos'] }), {})
  t.strictSame(hit('', { ...d, attributesToRetrieve: ['cattos'], attributesToHighlight: ['id'] }), { _formatted: { id: '852' } })
  t.strictSame(hit('', { ...d, attributesToRetrieve: ['cattos'], attributesToCrop: ['id'] }), { _formatted: { id: '852' } })
})

t.test('hits: crop lengths per attribute, markers, booleans and nulls kept', async (t) => {
  const doc = { id: 1, title: 'one two three four five six seven eight nine ten eleven', note: 'one two three', flag: true, nothing: null, tags: ['one', 'zero'] }
  t.strictSame(hit('zero', { attributesToCrop: ['title:3', 'note:abc'], cropLength: 2 }, doc), {
    ...doc,
    _formatted: { id: '1', title: 'one two three…', note: 'one two…', flag: true, nothing: null, tags: ['one', 'zero'] },
  })
  t.strictSame(hit('zero', { attributesToCrop: ['*:1'], attributesToHighlight: ['tags'] }, doc)._formatted, {
    id: '1', title: 'one…', note: 'one…', flag: true, nothing: null, tags: ['one', '<em>zero</em>'],
  })
  // _matchesPosition keys sorted; arrays keep the matches of their last matching element (format_fields inserts per leaf)
  t.strictSame(hit('one', { showMatchesPosition: true }, doc)._matchesPosition, {
    note: [{ start: 0, length: 3 }], tags: [{ start: 0, length: 3, indices: [0] }], title: [{ start: 0, length: 3 }],
  })
  t.strictSame(hit('pésti', { showMatchesPosition: true }, { a: ['x pésti', 'pésti y'] })._matchesPosition, { a: [{ start: 0, length: 6, indices: [1] }] })
  // nothing matched, no format asked: `_matchesPosition` is still there, empty
  t.strictSame(hit('nope', { showMatchesPosition: true }, { a: 'b' }), { a: 'b', _matchesPosition: {} })
})

t.test('hits: _vectors only with retrieveVectors and when displayed, never formatted', async (t) => {
  const doc = { id: 1, title: 'a', _vectors: { default: [1, 2] } }
  t.strictSame(hit('a', { attributesToHighlight: ['*'] }, doc), { id: 1, title: 'a', _formatted: { id: '1', title: '<em>a</em>' } })
  t.strictSame(hit('a', { retrieveVectors: true }, doc), { id: 1, title: 'a', _vectors: { default: [1, 2] } })
  t.strictSame(hit('a', { retrieveVectors: true, displayedAttributes: ['id', 'title'] }, doc), { id: 1, title: 'a' })
  t.strictSame(hit('a', { retrieveVectors: true, displayedAttributes: ['title', '_vectors'] }, doc), { title: 'a', _vectors: { default: [1, 2] } })
})

t.test('hits: fieldExists (names unknown to the index are ignored)', async (t) => {
  const doc = { id: 1, title: 'a' }
  const exists = (n: string) => n === 'id' || n === 'title'
  t.strictSame(hit('a', { attributesToHighlight: ['ghost'], fieldExists: exists }, doc), { id: 1, title: 'a' })
  // known to the index but absent from this document: `_formatted` still has the retrieved fields
  t.strictSame(hit('a', { attributesToHighlight: ['ghost'] }, doc), { id: 1, title: 'a', _formatted: { id: '1', title: 'a' } })
})

t.test('selectValues (permissive-json-pointer snapshots)', async (t) => {
  const value = { name: 'peanut', age: 8, race: { name: 'bernese mountain', avg_age: 12, size: '80cm' } }
  t.strictSame(selectValues(value, ['name']), { name: 'peanut' })
  t.strictSame(selectValues(value, ['name', 'age']), { name: 'peanut', age: 8 })
  t.strictSame(selectValues(value, ['race']), { race: value.race })
  t.strictSame(selectValues(value, ['race.name']), { race: { name: 'bernese mountain' } })
  t.strictSame(selectValues(value, ['race.name', 'race.size', 'race.avg_age', 'race.size', 'age']), { age: 8, race: { name: 'bernese mountain', avg_age: 12, size: '80cm' } })
  t.strictSame(selectValues(value, ['race.name', 'race']), { race: value.race })
  const jean = { jean: { age: 8, race: { name: 'bernese mountain', size: '80cm' } } }
  t.strictSame(selectValues(jean, ['jean.race.size']), { jean: { race: { size: '80cm' } } })
  t.strictSame(selectValues(jean, ['jean.race.name', 'jean.age']), { jean: { age: 8, race: { name: 'bernese mountain' } } })
  // primitives under a selected path are dropped inside arrays; empty objects are dropped inside arrays
  t.strictSame(selectValues({ a: [1, { b: 2 }, { c: 3 }, [{ b: 4 }]] }, ['a.b']), { a: [{ b: 2 }, [{ b: 4 }]] })
})

// ---- the response --------------------------------------------------------------------------------------------------

t.test('response and hit key order', async (t) => {
  const h = hitObject({ document: { id: 1 }, formatted: { id: '1' }, matchesPosition: {} }, { rankingScore: 0.5, rankingScoreDetails: { words: {} } })
  t.strictSame(Object.keys(h), ['id', '_formatted', '_matchesPosition', '_rankingScore', '_rankingScoreDetails'])
  t.strictSame(Object.keys(hitObject({ document: { id: 1 }, formatted: {} })), ['id'])
  const window = searchWindow({ offset: 0, limit: 20, page: null, hitsPerPage: null }, null)
  const r = searchResponse({ hits: [], query: '', processingTimeMs: 1, hitsInfo: hitsInfo({ offset: 0, limit: 20, page: null, hitsPerPage: null }, window, 3), facetStats: {}, facetDistribution: {}, semanticHitCount: 0 })
  t.strictSame(Object.keys(r), ['hits', 'query', 'processingTimeMs', 'limit', 'offset', 'estimatedTotalHits', 'facetDistribution', 'facetStats', 'semanticHitCount'])
  const p = searchResponse({ hits: [], query: 'q', queryVector: [1], processingTimeMs: 1, hitsInfo: hitsInfo({ offset: 0, limit: 20, page: 1, hitsPerPage: null }, window, 3) })
  t.strictSame(Object.keys(p), ['hits', 'query', 'queryVector', 'processingTimeMs', 'hitsPerPage', 'page', 'totalPages', 'totalHits'])
})

// ---- pagination ----------------------------------------------------------------------------------------------------

t.test('pagination arithmetic (prepare_search / perform_search)', async (t) => {
  type Row = [offset: number, limit: number, page: number | null, hitsPerPage: number | null, max: number | null, candidates: number, window: [number, number], info: Record<string, number>]
  const rows: Row[] = [
    // offset/limit
    [0, 20, null, null, null, 5, [0, 20], { limit: 20, offset: 0, estimatedTotalHits: 5 }],
    [10, 5, null, null, null, 2000, [10, 5], { limit: 5, offset: 10, estimatedTotalHits: 1000 }],
    [990, 20, null, null, null, 2000, [990, 10], { limit: 20, offset: 990, estimatedTotalHits: 1000 }],
    [1500, 20, null, null, null, 2000, [1000, 0], { limit: 20, offset: 1000, estimatedTotalHits: 1000 }],
    [0, 0, null, null, null, 7, [0, 0], { limit: 0, offset: 0, estimatedTotalHits: 7 }],
    [2, 3, null, null, 4, 10, [2, 2], { limit: 3, offset: 2, estimatedTotalHits: 4 }],
    [0, 20, null, null, 0, 10, [0, 0], { limit: 20, offset: 0, estimatedTotalHits: 0 }],
    // page/hitsPerPage
    [0, 20, 1, null, null, 45, [0, 20], { hitsPerPage: 20, page: 1, totalPages: 3, totalHits: 45 }],
    [0, 20, null, 10, null, 45, [0, 10], { hitsPerPage: 10, page: 1, totalPages: 5, totalHits: 45 }],
    [0, 20, 3, 10, null, 45, [20, 10], { hitsPerPage: 10, page: 3, totalPages: 5, totalHits: 45 }],
    [0, 20, 0, 10, null, 45, [0, 0], { hitsPerPage: 10, page: 0, totalPages: 5, totalHits: 45 }],
    [0, 20, 2, 0, null, 45, [0, 0], { hitsPerPage: 0, page: 2, totalPages: 0, totalHits: 45 }],
    [0, 20, 101, 10, null, 5000, [1000, 0], { hitsPerPage: 10, page: 101, totalPages: 100, totalHits: 1000 }],
    [0, 20, 100, 10, null, 5000, [990, 10], { hitsPerPage: 10, page: 100, totalPages: 100, totalHits: 1000 }],
    [0, 20, 2, 3, 4, 10, [3, 1], { hitsPerPage: 3, page: 2, totalPages: 2, totalHits: 4 }],
    [0, 20, 1, 10, null, 0, [0, 10], { hitsPerPage: 10, page: 1, totalPages: 0, totalHits: 0 }],
    // offset/limit are ignored in page mode
    [30, 5, 2, 10, null, 45, [10, 10], { hitsPerPage: 10, page: 2, totalPages: 5, totalHits: 45 }],
  ]
  for (const [offset, limit, page, hitsPerPage, max, candidates, [wo, wl], info] of rows) {
    const q = { offset, limit, page, hitsPerPage }
    const w = searchWindow(q, max)
    const label = JSON.stringify({ q, max, candidates })
    t.strictSame([w.offset, w.limit], [wo, wl], `window ${label}`)
    t.equal(w.finite, page !== null || hitsPerPage !== null)
    t.strictSame(hitsInfo(q, w, candidates), info, `info ${label}`)
    t.strictSame(Object.keys(hitsInfo(q, w, candidates)), Object.keys(info))
  }
  t.equal(DEFAULT_MAX_TOTAL_HITS, 1000)
})

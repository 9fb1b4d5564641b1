/**
 * The generated document corpus of the documents benchmark: deterministic (a seeded PRNG, a fixed vocabulary),
 * so every run and every format sends exactly the same documents. Generated lazily, in chunks, so a large corpus
 * can be streamed to a request without ever being held in memory.
 *
 * A document: `{id, title (3–8 words), description (20–60 words), price (float), stock (int), tags (1–4 words),
 * published (bool)}`. Some words carry a comma or double quotes, so the CSV serialization exercises RFC 4180
 * quoting (and the JSON one string escaping).
 */

export type PayloadFormat = 'json' | 'ndjson' | 'csv'

export interface BenchDocument {
  id: number
  title: string
  description: string
  price: number
  stock: number
  tags: string[]
  published: boolean
}

export const CONTENT_TYPES: Record<PayloadFormat, string> = {
  json: 'application/json',
  ndjson: 'application/x-ndjson',
  csv: 'text/csv',
}

export const CSV_HEADER = 'id,title,description,price:number,stock:number,tags,published:boolean'

export const DEFAULT_SEED = 0x7e55e7a

const WORDS = (
  'able acid aged also area army away baby back ball band bank base bath bear beat bell belt best bird blow blue ' +
  'boat body bone book boot born both bowl bulk burn bush busy cake call calm camp card care case cash cast cell ' +
  'chat chip city club coal coat code cold cook cool cope copy core cost crew crop dark data date dawn deal dean ' +
  'dear debt deep deny desk dial diet disc disk dock door dose down draw drew drop drug dual duke dust duty each ' +
  'earn ease east easy edge else even ever evil exit face fact fair fall farm fast fate fear feed feel file fill ' +
  'film find fine fire firm fish five flat flow folk food foot ford form fort four free fuel full fund gain game ' +
  'gate gear gene gift girl give glad goal gold golf good grey grow gulf hair half hall hand hang hard harm head ' +
  'hear heat held hell help here hero high hill hire hold hole holy home hope host hour huge hung hunt idea inch ' +
  'iron item jazz join jump jury just keen keep kept kick kind king knee knew know lack lady laid lake land lane ' +
  'last late lead left lens less life lift like line link list live load loan lock logo long look lord lose loss ' +
  'lost loud love luck made mail main make male mall many mark mass meal mean meat meet menu mere mild mile milk ' +
  'mind mine miss mode mood moon more most move much must name navy near neck need news next nice nine none nose ' +
  'note okay once only open oral over pace pack page paid pain pair palm park part pass past path peak pick pink ' +
  'pipe plan play plot plug plus poll pool poor port post pull pure push quiet radio rain rank rare rate read real ' +
  'rear rely rent rest rice rich ride ring rise risk road rock role roll roof room root rose rule rush safe sale ' +
  'salt same sand save seat seed seek self sell send ship shop shot show shut sick side sign silk site size skin ' +
  'slip slow snow soft soil sold sole song soon sort soul spot star stay step stop such suit sure take tale talk ' +
  'tall tank tape task team tech tell tend term test text than that thin this thus tide tile time tiny tone tool ' +
  'tour town tree trip true tune turn twin type unit upon used user vast very view vote wage wait wake walk wall ' +
  'want ward warm wash wave weak wear week well west what when whom wide wife wild will wind wine wing wire wise ' +
  'wish with wood word wore work yard yeah year your zero zone amber cobalt crimson velvet walnut granite maple ' +
  'cedar harbor meadow summit canyon prairie glacier lantern compass anchor beacon voyage orchard saddle'
).split(' ')

const TAGS = (
  'new sale eco premium classic outdoor indoor kids kitchen garden office travel sport audio video gaming ' +
  'vintage handmade organic wireless portable compact limited bestseller gift bundle refurbished imported local seasonal'
).split(' ')

/** mulberry32: a small, fast, seeded 32-bit PRNG (uniform in [0, 1)). */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** A Zipf(s) sampler over `n` ranks (0 = the most frequent), by inverse CDF. */
export function zipf(n: number, s: number, rand: () => number): () => number {
  const cdf = new Float64Array(n)
  let sum = 0
  for (let k = 0; k < n; k++) cdf[k] = sum += 1 / (k + 1) ** s
  for (let k = 0; k < n; k++) cdf[k]! /= sum
  return () => {
    const u = rand()
    let lo = 0
    let hi = n - 1
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if (cdf[mid]! < u) lo = mid + 1
      else hi = mid
    }
    return lo
  }
}

/** The documents with ids `0 .. count-1`, always the same for the same seed. */
export function* generateDocuments(count: number, seed = DEFAULT_SEED): Generator<BenchDocument> {
  const rand = mulberry32(seed)
  const int = (lo: number, hi: number) => lo + Math.floor(rand() * (hi - lo + 1))
  const word = () => WORDS[Math.floor(rand() * WORDS.length)]!
  for (let id = 0; id < count; id++) {
    const titleWords: string[] = []
    for (let i = int(3, 8); i > 0; i--) titleWords.push(word())
    titleWords[0] = titleWords[0]!.charAt(0).toUpperCase() + titleWords[0]!.slice(1)
    // One title in 20 has a quoted word, one in 10 a comma.
    if (rand() < 0.05) titleWords[titleWords.length - 1] = `"${titleWords[titleWords.length - 1]}"`
    if (rand() < 0.1) titleWords[0] += ','
    const words: string[] = []
    const n = int(20, 60)
    for (let i = 0; i < n; i++) {
      let w = word()
      const r = rand()
      if (r < 0.08 && i < n - 1) w += ','
      else if (r < 0.1) w = `"${w}"`
      words.push(w)
    }
    const tags: string[] = []
    for (let i = int(1, 4); i > 0; i--) {
      const tag = TAGS[Math.floor(rand() * TAGS.length)]!
      if (!tags.includes(tag)) tags.push(tag)
    }
    yield {
      id,
      title: titleWords.join(' '),
      description: words.join(' ') + '.',
      price: Math.round(rand() * 100_000) / 100,
      stock: int(0, 5000),
      tags,
      published: rand() < 0.7,
    }
  }
}

/** A CSV field, quoted per RFC 4180 when it holds the delimiter, a double quote or a line break. */
export function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value
}

export function csvRow(doc: BenchDocument): string {
  return [String(doc.id), csvField(doc.title), csvField(doc.description), String(doc.price), String(doc.stock), csvField(doc.tags.join(' ')), String(doc.published)].join(',')
}

/** The document as the service should return it after ingesting it in `format` (CSV: typed columns only). */
export function expectedDocument(doc: BenchDocument, format: PayloadFormat): Record<string, unknown> {
  if (format !== 'csv') return { ...doc }
  return { ...doc, id: String(doc.id), tags: doc.tags.join(' ') }
}

/**
 * The serialization of `count` documents in `format`, as text pieces of about `docsPerPiece` documents each:
 * concatenated they form one valid payload. A JSON array is `[` + documents joined by `,` + `]`; NDJSON one
 * document per line; CSV the header line then one row per document (lines end with `\n`).
 */
export function* serialize(format: PayloadFormat, docs: Iterable<BenchDocument>, docsPerPiece = 2000): Generator<string> {
  let parts: string[] = []
  let first = true
  if (format === 'json') parts.push('[')
  if (format === 'csv') parts.push(CSV_HEADER + '\n')
  for (const doc of docs) {
    switch (format) {
      case 'json': parts.push((first ? '' : ',') + JSON.stringify(doc)); break
      case 'ndjson': parts.push(JSON.stringify(doc) + '\n'); break
      case 'csv': parts.push(csvRow(doc) + '\n'); break
    }
    first = false
    if (parts.length >= docsPerPiece) {
      yield parts.join('')
      parts = []
    }
  }
  if (format === 'json') parts.push(']')
  if (parts.length > 0) yield parts.join('')
}

/** A whole payload in memory, with a few of its documents kept to check what the service stored. */
export function buildPayload(format: PayloadFormat, count: number, sampleIds: number[], seed = DEFAULT_SEED): { body: Buffer; samples: BenchDocument[] } {
  const samples: BenchDocument[] = []
  const wanted = new Set(sampleIds)
  const docs = function* () {
    for (const doc of generateDocuments(count, seed)) {
      if (wanted.has(doc.id)) samples.push(doc)
      yield doc
    }
  }
  const pieces = [...serialize(format, docs())].map((p) => Buffer.from(p, 'utf8'))
  return { body: Buffer.concat(pieces), samples }
}

/** NDJSON payloads of `perPayload` consecutive documents each, covering the corpus of `count` documents. */
export function buildNdjsonParts(count: number, perPayload: number, sampleIds: number[], seed = DEFAULT_SEED): { bodies: Buffer[]; samples: BenchDocument[] } {
  const samples: BenchDocument[] = []
  const wanted = new Set(sampleIds)
  const bodies: Buffer[] = []
  let lines: string[] = []
  for (const doc of generateDocuments(count, seed)) {
    if (wanted.has(doc.id)) samples.push(doc)
    lines.push(JSON.stringify(doc) + '\n')
    if (lines.length === perPayload) { bodies.push(Buffer.from(lines.join(''), 'utf8')); lines = [] }
  }
  if (lines.length > 0) bodies.push(Buffer.from(lines.join(''), 'utf8'))
  return { bodies, samples }
}

/** The byte length of the `format` serialization of `count` documents, without holding it (one generation pass). */
export function payloadLength(format: PayloadFormat, count: number, seed = DEFAULT_SEED): number {
  let bytes = 0
  for (const piece of serialize(format, generateDocuments(count, seed))) bytes += Buffer.byteLength(piece, 'utf8')
  return bytes
}

/**
 * The uniform generated corpus (the documents scenario's payloads, the search scenario's default corpus, the facets
 * and tasks scenarios' documents): deterministic (a seeded PRNG, a fixed vocabulary), so every run and every format
 * sends exactly the same documents. Generated lazily, so a large corpus can be streamed to a request without ever
 * being held in memory. Its words are drawn uniformly (zipf-corpus.ts has natural-looking frequencies).
 *
 * A document: `{id, title (3–8 words), description (20–60 words), price (float), stock (int), tags (1–4 words),
 * published (bool)}`. Some words carry a comma or double quotes, so the CSV serialization exercises RFC 4180
 * quoting (and the JSON one string escaping).
 */
import { mulberry32 } from './random.js'

export interface BenchDocument {
  id: number
  title: string
  description: string
  price: number
  stock: number
  tags: string[]
  published: boolean
}

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

/**
 * The filter engine: the parser (tree shape and every error message, checked against Meilisearch's own parser
 * snapshots in `crates/filter-parser/src/lib.rs`), the array form, the settings checks (`checkFilterable`) and the
 * evaluation semantics (`matches`).
 */
import t from 'tap'
import { TesseraError } from '../../../engine/errors/index.js'
import { parseFilter, checkFilterable, matches, type FilterExpression, type Token, type Condition } from '../../../engine/filter/index.js'

const CODE = 'invalid_search_filter'

/** Meilisearch's `Display` of a parsed filter, which its parser tests snapshot. */
function show(e: FilterExpression): string {
  const tok = (t: Token) => `{${t.value}}`
  const cond = (c: Condition): string => {
    switch (c.op) {
      case 'TO': return `${tok(c.from)} TO ${tok(c.to)}`
      case 'EXISTS':
      case 'IS NULL':
      case 'IS EMPTY': return c.op
      case 'CONTAINS':
      case 'STARTS WITH': return `${c.op} ${tok(c.value)}`
      default: return `${c.op} ${tok(c.value)}`
    }
  }
  switch (e.type) {
    case 'not': return `NOT (${show(e.child)})`
    case 'condition': return `${tok(e.field)} ${cond(e.condition)}`
    case 'in': return `${tok(e.field)} IN[${e.values.map((v) => `${tok(v)}, `).join('')}]`
    case 'or': return `OR[${e.children.map((c) => `${show(c)}, `).join('')}]`
    case 'and': return `AND[${e.children.map((c) => `${show(c)}, `).join('')}]`
    case 'geoRadius': return `_geoRadius(${tok(e.lat)}, ${tok(e.lng)}, ${tok(e.radius)}${e.resolution ? `, ${tok(e.resolution)}` : ''})`
    case 'geoBoundingBox': return `_geoBoundingBox([${tok(e.topRight[0])}, ${tok(e.topRight[1])}], [${tok(e.bottomLeft[0])}, ${tok(e.bottomLeft[1])}])`
    case 'geoPolygon': return `_geoPolygon([${e.points.map(([a, b]) => `[${tok(a)}, ${tok(b)}], `).join('')}])`
    case 'vectorExists': {
      let s = '_vectors'
      if (e.embedder) s += `.${JSON.stringify(e.embedder.value)}`
      if (e.selector.kind === 'fragment') s += `.fragments.${JSON.stringify(e.selector.fragment.value)}`
      else if (e.selector.kind !== 'all') s += `.${e.selector.kind}`
      return `${s} EXISTS`
    }
  }
}

const p = (s: unknown) => {
  const e = parseFilter(s, CODE)
  return e === null ? null : show(e)
}

/** The error a filter gives: its message (and the code must be the one passed in). */
function err(s: unknown, code = CODE): string {
  try {
    parseFilter(s, code)
  } catch (e) {
    if (!(e instanceof TesseraError)) throw e
    if (e.code !== code) throw new Error(`code ${e.code}, expected ${code}`)
    return e.message
  }
  throw new Error(`no error for ${JSON.stringify(s)}`)
}

const OPS = 'Was expecting an operation `=`, `!=`, `>=`, `>`, `<=`, `<`, `IN`, `NOT IN`, `TO`, `EXISTS`, `NOT EXISTS`, `IS NULL`, `IS NOT NULL`, `IS EMPTY`, `IS NOT EMPTY`, `CONTAINS`, `NOT CONTAINS`, `STARTS WITH`, `NOT STARTS WITH`, `_geoRadius`, `_geoBoundingBox` or `_geoPolygon`'
const RESERVED_GEO = "is a reserved keyword and thus can't be used as a filter expression. Use the `_geoRadius(latitude, longitude, distance)` or `_geoBoundingBox([latitude, longitude], [latitude, longitude])` built-in rules to filter on `_geo` coordinates."
const DEPTH = 'The filter exceeded the maximum depth limit. Try rewriting the filter so that it contains fewer nested conditions.'

t.test('parser: equality, quotes and whitespace', async (t) => {
  t.equal(p('channel = Ponce'), '{channel} = {Ponce}')
  t.equal(p('subscribers = 12'), '{subscribers} = {12}')
  t.equal(p("channel = 'Mister Mv'"), '{channel} = {Mister Mv}')
  t.equal(p('channel = "Mister Mv"'), '{channel} = {Mister Mv}')
  t.equal(p("'dog race' = Borzoi"), '{dog race} = {Borzoi}')
  t.equal(p('"dog race" = Chusky'), '{dog race} = {Chusky}')
  t.equal(p('"dog race" = "Bernese Mountain"'), '{dog race} = {Bernese Mountain}')
  t.equal(p("'dog race' = 'Bernese Mountain'"), '{dog race} = {Bernese Mountain}')
  t.equal(p('"dog race" = \'Bernese Mountain\''), '{dog race} = {Bernese Mountain}')
  t.equal(p(' colour = green '), '{colour} = {green}')
  t.equal(p('a.b-c_d.e = x.y-z'), '{a.b-c_d.e} = {x.y-z}')
  t.equal(p('prix = 12.5'), '{prix} = {12.5}')
  t.equal(p('couleur = rouge\u00e9'), '{couleur} = {rouge\u00e9}', 'unicode letters are word characters')
  t.equal(p("x = ''"), '{x} = {}', 'an empty quoted value')
  t.equal(p('x=1'), '{x} = {1}', 'no spaces needed around operators')
})

t.test('parser: escapes', async (t) => {
  t.equal(p(String.raw`title = 'foo\\'`), String.raw`{title} = {foo\}`)
  t.equal(p(String.raw`title = 'foo\\\\'`), String.raw`{title} = {foo\\}`)
  t.equal(p(String.raw`title = 'foo\\\\\\'`), String.raw`{title} = {foo\\\}`)
  t.equal(p(String.raw`title = 'foo\x20\n\t\"\'"'`), '{title} = {foo \n\t"\'"}')
  t.equal(p(String.raw`x = "Hello \"world\""`), '{x} = {Hello "world"}')
  t.equal(p(String.raw`x = "Hello \\\"world\\\""`), '{x} = {Hello \\"world\\"}')
  t.equal(p(String.raw`x = 'I\'m "super" tamo'`), '{x} = {I\'m "super" tamo}')
  t.equal(p(String.raw`x = "\u{e9}t\u00e9"`), '{x} = {\u00e9t\u00e9}')
  t.equal(p(String.raw`monitor_diagonal = '27" to 30\''`), '{monitor_diagonal} = {27" to 30\'}')
  t.equal(err(String.raw`x = 'a\qb'`), "Malformed value: `a\\\\qb`.\n6:10 x = 'a\\qb'")
  t.equal(err(String.raw`x = "\u{zz}"`), 'Found an invalid escaped sequence number: `\\\\u{zz}`.\n6:12 x = "\\u{zz}"')
})

t.test('parser: IN and NOT IN', async (t) => {
  t.equal(p('colour IN[]'), '{colour} IN[]')
  t.equal(p('colour IN[green]'), '{colour} IN[{green}, ]')
  t.equal(p('colour IN[green,]'), '{colour} IN[{green}, ]')
  t.equal(p('colour NOT IN[green,blue]'), 'NOT ({colour} IN[{green}, {blue}, ])')
  t.equal(p(' colour IN [  green , blue , ]'), '{colour} IN[{green}, {blue}, ]')
  t.equal(p(' colour IN [green, blue]  AND color = green '), 'AND[{colour} IN[{green}, {blue}, ], {color} = {green}, ]')
  t.equal(p('NOT (colour IN [green, blue])  AND color = green '), 'AND[NOT ({colour} IN[{green}, {blue}, ]), {color} = {green}, ]')
  t.equal(p('x = 1 OR NOT (colour IN [green, blue]  OR color = green) '), 'OR[{x} = {1}, NOT (OR[{colour} IN[{green}, {blue}, ], {color} = {green}, ]), ]')
  t.equal(p(' colour NOT  IN [green, blue] '), 'NOT ({colour} IN[{green}, {blue}, ])')
  t.equal(p("colour IN ['light blue', \"dark, green\"]"), '{colour} IN[{light blue}, {dark, green}, ]')
})

t.test('parser: every comparison operator and TO', async (t) => {
  t.equal(p('channel != ponce'), '{channel} != {ponce}')
  t.equal(p('NOT channel = ponce'), 'NOT ({channel} = {ponce})')
  t.equal(p('subscribers < 1000'), '{subscribers} < {1000}')
  t.equal(p('subscribers > 1000'), '{subscribers} > {1000}')
  t.equal(p('subscribers <= 1000'), '{subscribers} <= {1000}')
  t.equal(p('subscribers >= 1000'), '{subscribers} >= {1000}')
  t.equal(p('subscribers 100 TO 1000'), '{subscribers} {100} TO {1000}')
  t.equal(p('NOT subscribers < 1000'), 'NOT ({subscribers} < {1000})')
  t.equal(p('NOT subscribers 100 TO 1000'), 'NOT ({subscribers} {100} TO {1000})')
  t.equal(p('price -10.5 TO -1'), '{price} {-10.5} TO {-1}')
})

t.test('parser: NULL, EMPTY, EXISTS, CONTAINS, STARTS WITH', async (t) => {
  t.equal(p('subscribers IS NULL'), '{subscribers} IS NULL')
  t.equal(p('NOT subscribers IS NULL'), 'NOT ({subscribers} IS NULL)')
  t.equal(p('subscribers IS NOT NULL'), 'NOT ({subscribers} IS NULL)')
  t.equal(p('NOT subscribers IS NOT NULL'), '{subscribers} IS NULL')
  t.equal(p('subscribers  IS   NOT   NULL'), 'NOT ({subscribers} IS NULL)')
  t.equal(p('subscribers IS EMPTY'), '{subscribers} IS EMPTY')
  t.equal(p('NOT subscribers IS EMPTY'), 'NOT ({subscribers} IS EMPTY)')
  t.equal(p('subscribers IS NOT EMPTY'), 'NOT ({subscribers} IS EMPTY)')
  t.equal(p('NOT subscribers IS NOT EMPTY'), '{subscribers} IS EMPTY')
  t.equal(p('subscribers  IS   NOT   EMPTY'), 'NOT ({subscribers} IS EMPTY)')
  t.equal(p('subscribers EXISTS'), '{subscribers} EXISTS')
  t.equal(p('NOT subscribers EXISTS'), 'NOT ({subscribers} EXISTS)')
  t.equal(p('subscribers NOT EXISTS'), 'NOT ({subscribers} EXISTS)')
  t.equal(p('NOT subscribers NOT EXISTS'), '{subscribers} EXISTS')
  t.equal(p('subscribers NOT   EXISTS'), 'NOT ({subscribers} EXISTS)')
  t.equal(p("subscribers CONTAINS 'hello'"), '{subscribers} CONTAINS {hello}')
  t.equal(p("NOT subscribers CONTAINS 'hello'"), 'NOT ({subscribers} CONTAINS {hello})')
  t.equal(p('subscribers NOT CONTAINS hello'), 'NOT ({subscribers} CONTAINS {hello})')
  t.equal(p("NOT subscribers NOT CONTAINS 'hello'"), '{subscribers} CONTAINS {hello}')
  t.equal(p("subscribers NOT   CONTAINS 'hello'"), 'NOT ({subscribers} CONTAINS {hello})')
  t.equal(p("subscribers STARTS WITH 'hel'"), '{subscribers} STARTS WITH {hel}')
  t.equal(p("NOT subscribers STARTS WITH 'hel'"), 'NOT ({subscribers} STARTS WITH {hel})')
  t.equal(p('subscribers NOT STARTS WITH hel'), 'NOT ({subscribers} STARTS WITH {hel})')
  t.equal(p("NOT subscribers NOT STARTS WITH 'hel'"), '{subscribers} STARTS WITH {hel}')
  t.equal(p("subscribers NOT   STARTS WITH 'hel'"), 'NOT ({subscribers} STARTS WITH {hel})')
  // the CONTAINS keyword token is kept (the feature error points at it)
  const expr = parseFilter('doggo CONTAINS kefir', CODE)!
  t.ok(expr.type === 'condition' && expr.condition.op === 'CONTAINS' && expr.condition.keyword.start === 6 && expr.condition.keyword.end === 14)
})

t.test('parser: NOT, precedence and parentheses', async (t) => {
  t.equal(p('NOT NOT NOT NOT x = 5'), '{x} = {5}')
  t.equal(p('NOT NOT (NOT NOT x = 5)'), '{x} = {5}')
  t.equal(p('NOT NOT NOT x = 5'), 'NOT ({x} = {5})')
  t.equal(p("channel = ponce AND 'dog race' != 'bernese mountain'"), 'AND[{channel} = {ponce}, {dog race} != {bernese mountain}, ]')
  t.equal(p("channel = ponce OR 'dog race' != 'bernese mountain'"), 'OR[{channel} = {ponce}, {dog race} != {bernese mountain}, ]')
  t.equal(p("channel = ponce AND 'dog race' != 'bernese mountain' OR subscribers > 1000"), 'OR[AND[{channel} = {ponce}, {dog race} != {bernese mountain}, ], {subscribers} > {1000}, ]')
  t.equal(
    p("channel = ponce AND 'dog race' != 'bernese mountain' OR subscribers > 1000 OR colour = red OR colour = blue AND size = 7"),
    'OR[AND[{channel} = {ponce}, {dog race} != {bernese mountain}, ], {subscribers} > {1000}, {colour} = {red}, AND[{colour} = {blue}, {size} = {7}, ], ]',
  )
  t.equal(p("channel = ponce AND ( 'dog race' != 'bernese mountain' OR subscribers > 1000 )"), 'AND[{channel} = {ponce}, OR[{dog race} != {bernese mountain}, {subscribers} > {1000}, ], ]')
  t.equal(
    p("(channel = ponce AND 'dog race' != 'bernese mountain' OR subscribers > 1000) AND _geoRadius(12, 13, 14)"),
    'AND[OR[AND[{channel} = {ponce}, {dog race} != {bernese mountain}, ], {subscribers} > {1000}, ], _geoRadius({12}, {13}, {14}), ]',
  )
  t.equal(p('NOT a = 1 AND b = 2'), 'AND[NOT ({a} = {1}), {b} = {2}, ]', 'NOT binds tighter than AND')
  t.equal(p('NOT (a = 1 AND b = 2)'), 'NOT (AND[{a} = {1}, {b} = {2}, ])')
  t.equal(p(' (colour = green OR colour = red) '), 'OR[{colour} = {green}, {colour} = {red}, ]')
  t.equal(p('NOT "OR" EXISTS AND "EXISTS" NOT EXISTS'), 'AND[NOT ({OR} EXISTS), NOT ({EXISTS} EXISTS), ]', 'quoted keywords are values')
  t.equal(p('a = 1\nAND b = 2'), 'AND[{a} = {1}, {b} = {2}, ]', 'newlines are whitespace')
})

t.test('parser: keywords are case-sensitive, as in Meilisearch', async (t) => {
  t.equal(err('channel = ponce and x = 1'), 'Found unexpected characters at the end of the filter: `and x = 1`. You probably forgot an `OR` or an `AND` rule.\n17:26 channel = ponce and x = 1')
  t.equal(p('and = or'), '{and} = {or}', 'lowercase keywords are plain words')
})

t.test('parser: geo functions', async (t) => {
  t.equal(p('_geoRadius(12, 13, 14)'), '_geoRadius({12}, {13}, {14})')
  t.equal(p('NOT _geoRadius(12, 13, 14)'), 'NOT (_geoRadius({12}, {13}, {14}))')
  t.equal(p('_geoRadius(12,13,14)'), '_geoRadius({12}, {13}, {14})')
  t.equal(p('_geoRadius(-12.5, +13e1, .5, 2)'), '_geoRadius({-12.5}, {+13e1}, {.5}, {2})', 'floats, and the optional resolution')
  t.equal(p('_geoBoundingBox([12, 13], [14, 15])'), '_geoBoundingBox([{12}, {13}], [{14}, {15}])')
  t.equal(p('NOT _geoBoundingBox([12, 13], [14, 15])'), 'NOT (_geoBoundingBox([{12}, {13}], [{14}, {15}]))')
  t.equal(p('_geoBoundingBox([12,13],[14,15])'), '_geoBoundingBox([{12}, {13}], [{14}, {15}])')
  t.equal(p('_geoPolygon([1, 2], [3, 4], [5, 6])'), '_geoPolygon([[{1}, {2}], [{3}, {4}], [{5}, {6}], ])')
  t.equal(p('_geoPolygon([1,2],[3,4],[5,6],)'), '_geoPolygon([[{1}, {2}], [{3}, {4}], [{5}, {6}], ])', 'a trailing comma is tolerated')
})

t.test('parser: _vectors', async (t) => {
  t.equal(p('_vectors EXISTS'), '_vectors EXISTS')
  t.equal(p('_vectors NOT EXISTS'), 'NOT (_vectors EXISTS)')
  t.equal(p('_vectors.rest EXISTS'), '_vectors."rest" EXISTS')
  t.equal(p('_vectors.rest.userProvided EXISTS'), '_vectors."rest".userProvided EXISTS')
  t.equal(p('_vectors.rest.documentTemplate EXISTS'), '_vectors."rest".documentTemplate EXISTS')
  t.equal(p('_vectors.rest.regenerate EXISTS'), '_vectors."rest".regenerate EXISTS')
  t.equal(p('_vectors.rest.fragments.basic EXISTS'), '_vectors."rest".fragments."basic" EXISTS')
  t.equal(p('_vectors." valid.name  ".fragments."also.. valid! " EXISTS'), '_vectors." valid.name  ".fragments."also.. valid! " EXISTS')
  t.equal(p('_vectors.rest = 1'), '{_vectors.rest} = {1}', 'other operators parse as plain conditions')
})

t.test('parser: depth limit', async (t) => {
  const parens = (n: number) => `${'('.repeat(n)}x = 1${')'.repeat(n)}`
  const nots = (n: number) => `${'NOT '.repeat(n)}x = 1`
  t.equal(p(parens(36)), '{x} = {1}', '36 nested parentheses are allowed')
  t.equal(err(parens(37)), `${DEPTH}\n38:80 ${parens(37)}`)
  t.equal(err(parens(50)), `${DEPTH}\n38:106 ${parens(50)}`)
  t.equal(p(nots(147)), 'NOT ({x} = {1})', '147 NOTs are allowed')
  t.equal(err(nots(148)), `${DEPTH}\n593:598 ${nots(148)}`)
  t.equal(err(nots(199)), `${DEPTH}\n597:802 ${nots(199)}`)
  const long = Array.from({ length: 5000 }, (_, i) => `id = ${i}`).join(' OR ')
  const e = parseFilter(long, CODE)!
  t.ok(e.type === 'or' && e.children.length === 5000, 'a long flat OR is not deep')
})

t.test('parser: error messages (Meilisearch snapshots)', async (t) => {
  const cases: [string, string][] = [
    ['channel = Ponce = 12', 'Found unexpected characters at the end of the filter: `= 12`. You probably forgot an `OR` or an `AND` rule.\n17:21 channel = Ponce = 12'],
    ['channel =    ', 'Was expecting a value but instead got nothing.\n14:14 channel =    '],
    ['channel = 🐻', 'Was expecting a value but instead got `🐻`.\n11:12 channel = 🐻'],
    ['channel = 🐻 AND followers < 100', 'Was expecting a value but instead got `🐻`.\n11:12 channel = 🐻 AND followers < 100'],
    ["'OR'", `${OPS} at \`\\'OR\\'\`.\n1:5 'OR'`],
    ['OR', 'Was expecting a value but instead got `OR`, which is a reserved keyword. To use `OR` as a field name or a value, surround it by quotes.\n1:3 OR'],
    ['channel Ponce', `${OPS} at \`channel Ponce\`.\n1:14 channel Ponce`],
    ['channel = Ponce OR', `${OPS} but instead got nothing.\n19:19 channel = Ponce OR`],
    ['_geoRadius', 'The `_geoRadius` filter must be in the form: `_geoRadius(latitude, longitude, radius, optionalResolution)`.\n11:11 _geoRadius'],
    ['_geoRadius = 12', 'The `_geoRadius` filter must be in the form: `_geoRadius(latitude, longitude, radius, optionalResolution)`.\n11:16 _geoRadius = 12'],
    ['_geoRadius(1, 2)', 'Was expecting 3 or 4 arguments for `_geoRadius`, but instead found 2.\n17:17 _geoRadius(1, 2)'],
    ['_geoBoundingBox', 'The `_geoBoundingBox` filter expects two pairs of arguments: `_geoBoundingBox([latitude, longitude], [latitude, longitude])`.\n16:16 _geoBoundingBox'],
    ['_geoBoundingBox = 12', 'The `_geoBoundingBox` filter expects two pairs of arguments: `_geoBoundingBox([latitude, longitude], [latitude, longitude])`.\n16:21 _geoBoundingBox = 12'],
    ['_geoBoundingBox(1.0, 1.0)', 'The `_geoBoundingBox` filter expects two pairs of arguments: `_geoBoundingBox([latitude, longitude], [latitude, longitude])`.\n17:26 _geoBoundingBox(1.0, 1.0)'],
    ['_geoBoundingBox([1, 2], [3, 4, 5])', 'Was expecting 2 coordinates but instead found 3.\n26:27 _geoBoundingBox([1, 2], [3, 4, 5])'],
    ['_geoPolygon([1,2,3])', 'The `_geoPolygon` filter expects at least 3 points but only 1 were specified\n18:19 _geoPolygon([1,2,3])'],
    ['_geoPolygon(1,2,3)', "The `_geoPolygon` filter doesn't match the expected format: `_geoPolygon([latitude, longitude], [latitude, longitude])`.\n13:19 _geoPolygon(1,2,3)"],
    ['_geoPolygon([1,2],[1,2],[1,2,3])', 'Was expecting 2 coordinates but instead found 3.\n26:27 _geoPolygon([1,2],[1,2],[1,2,3])'],
    ['_geoPolygon([1,2],[1,2,3])', 'The `_geoPolygon` filter expects at least 3 points but only 2 were specified\n24:25 _geoPolygon([1,2],[1,2,3])'],
    ['_geoPolygon(1)', "The `_geoPolygon` filter doesn't match the expected format: `_geoPolygon([latitude, longitude], [latitude, longitude])`.\n13:15 _geoPolygon(1)"],
    ['_geoPolygon([1,2)', "The `_geoPolygon` filter doesn't match the expected format: `_geoPolygon([latitude, longitude], [latitude, longitude])`.\n17:18 _geoPolygon([1,2)"],
    ['_geoPoint(12, 13, 14)', `\`_geoPoint\` ${RESERVED_GEO}\n1:22 _geoPoint(12, 13, 14)`],
    ['position <= _geoPoint(12, 13, 14)', `\`_geoPoint\` ${RESERVED_GEO}\n13:34 position <= _geoPoint(12, 13, 14)`],
    ['_geoDistance(12, 13, 14)', `\`_geoDistance\` ${RESERVED_GEO}\n1:25 _geoDistance(12, 13, 14)`],
    ['position <= _geoDistance(12, 13, 14)', `\`_geoDistance\` ${RESERVED_GEO}\n13:37 position <= _geoDistance(12, 13, 14)`],
    ['_geo(12, 13, 14)', `\`_geo\` ${RESERVED_GEO}\n1:17 _geo(12, 13, 14)`],
    ['position <= _geo(12, 13, 14)', `\`_geo\` ${RESERVED_GEO}\n13:29 position <= _geo(12, 13, 14)`],
    ['_geo = 12', `\`_geo\` ${RESERVED_GEO}\n1:10 _geo = 12`],
    ['position <= _geoRadius(12, 13, 14)', "The `_geoRadius` filter is an operation and can't be used as a value.\n13:35 position <= _geoRadius(12, 13, 14)"],
    ['position = _geoBoundingBox([1, 2], [3, 4])', "The `_geoBoundingBox` filter is an operation and can't be used as a value.\n12:43 position = _geoBoundingBox([1, 2], [3, 4])"],
    ["channel = 'ponce", "Expression `\\'ponce` is missing the following closing delimiter: `'`.\n11:17 channel = 'ponce"],
    ['channel = "ponce', 'Expression `\\"ponce` is missing the following closing delimiter: `"`.\n11:17 channel = "ponce'],
    ['channel = mv OR (followers >= 1000', 'Expression `(followers >= 1000` is missing the following closing delimiter: `)`.\n17:35 channel = mv OR (followers >= 1000'],
    ['channel = mv OR followers >= 1000)', 'Found unexpected characters at the end of the filter: `)`. You probably forgot an `OR` or an `AND` rule.\n34:35 channel = mv OR followers >= 1000)'],
    ['colour NOT EXIST', `${OPS} at \`colour NOT EXIST\`.\n1:17 colour NOT EXIST`],
    ['subscribers 100 TO1000', `${OPS} at \`subscribers 100 TO1000\`.\n1:23 subscribers 100 TO1000`],
    ["channel = ponce ORdog != 'bernese mountain'", "Found unexpected characters at the end of the filter: `ORdog != \\'bernese mountain\\'`. You probably forgot an `OR` or an `AND` rule.\n17:44 channel = ponce ORdog != 'bernese mountain'"],
    ['colour IN blue, green]', 'Expected `[` after `IN` keyword.\n11:23 colour IN blue, green]'],
    ["colour IN [blue, green, 'blue' > 2]", "Expected only comma-separated field names inside `IN[..]` but instead found `> 2]`.\n32:36 colour IN [blue, green, 'blue' > 2]"],
    ['colour IN [blue, green, AND]', 'Expected only comma-separated field names inside `IN[..]` but instead found `AND]`.\n25:29 colour IN [blue, green, AND]'],
    ['colour IN [blue, green', 'Expected matching `]` after the list of field names given to `IN[`\n23:23 colour IN [blue, green'],
    ["colour IN ['blue, green", "Expression `\\'blue, green` is missing the following closing delimiter: `'`.\n12:24 colour IN ['blue, green"],
    ['x = EXISTS', 'Was expecting a value but instead got `EXISTS`, which is a reserved keyword. To use `EXISTS` as a field name or a value, surround it by quotes.\n5:11 x = EXISTS'],
    ['AND = 8', 'Was expecting a value but instead got `AND`, which is a reserved keyword. To use `AND` as a field name or a value, surround it by quotes.\n1:4 AND = 8'],
    ['NOT OR EXISTS AND EXISTS NOT EXISTS', 'Was expecting a value but instead got `OR`, which is a reserved keyword. To use `OR` as a field name or a value, surround it by quotes.\n5:7 NOT OR EXISTS AND EXISTS NOT EXISTS'],
    ['value NULL', `${OPS} at \`value NULL\`.\n1:11 value NULL`],
    ['value NOT NULL', `${OPS} at \`value NOT NULL\`.\n1:15 value NOT NULL`],
    ['value EMPTY', `${OPS} at \`value EMPTY\`.\n1:12 value EMPTY`],
    ['value NOT EMPTY', `${OPS} at \`value NOT EMPTY\`.\n1:16 value NOT EMPTY`],
    ['value IS', `${OPS} at \`value IS\`.\n1:9 value IS`],
    ['value IS NOT', `${OPS} at \`value IS NOT\`.\n1:13 value IS NOT`],
    ['value IS EXISTS', `${OPS} at \`value IS EXISTS\`.\n1:16 value IS EXISTS`],
    ['value IS NOT EXISTS', `${OPS} at \`value IS NOT EXISTS\`.\n1:20 value IS NOT EXISTS`],
    ['title', `${OPS} at \`title\`.\n1:6 title`],
    ['x CONTAINS', 'Was expecting a value but instead got nothing.\n11:11 x CONTAINS'],
    ['x 1 TO', `${OPS} at \`x 1 TO\`.\n1:7 x 1 TO`],
    ['x 1 TO ', 'Was expecting a value but instead got nothing.\n8:8 x 1 TO '],
    ['a = 1 AND', `${OPS} but instead got nothing.\n10:10 a = 1 AND`],
    ['NOT', `${OPS} but instead got nothing.\n4:4 NOT`],
    ['(a = 1', 'Expression `(a = 1` is missing the following closing delimiter: `)`.\n1:7 (a = 1'],
    ['a = 1 AND (b = 2\n OR c = 3', 'Expression `(b = 2\\n OR c = 3` is missing the following closing delimiter: `)`.\n11:27 a = 1 AND (b = 2\n OR c = 3'],
    ['a = 1\nAND b', `${OPS} at \`b\`.\n5:6 a = 1\nAND b`],
    ['a = "x\ty', 'Expression `\\"x\\ty` is missing the following closing delimiter: `"`.\n5:9 a = "x\ty'],
    ['_vectors _vectors EXISTS', 'Was expecting an operation like `EXISTS` or `NOT EXISTS` after the vector filter.\n10:25 _vectors _vectors EXISTS'],
    ['_vectors. embedderName EXISTS', 'Was expecting embedder name but found nothing.\n10:11 _vectors. embedderName EXISTS'],
    ['_vectors .embedderName EXISTS', 'Was expecting an operation like `EXISTS` or `NOT EXISTS` after the vector filter.\n10:30 _vectors .embedderName EXISTS'],
    ['_vectors.embedderName. EXISTS', 'Was expecting one of `.fragments`, `.userProvided`, `.documentTemplate`, `.regenerate` or nothing, but instead found a point without a valid value.\n22:23 _vectors.embedderName. EXISTS'],
    ['_vectors."embedderName EXISTS', 'The quotes in one of the values are inconsistent.\n10:30 _vectors."embedderName EXISTS'],
    ['_vectors."embedderNam"e EXISTS', 'The vector filter has leftover tokens.\n23:31 _vectors."embedderNam"e EXISTS'],
    ['_vectors.embedderName.documentTemplate. EXISTS', 'Was expecting one of `.fragments`, `.userProvided`, `.documentTemplate`, `.regenerate` or nothing, but instead found a point without a valid value.\n39:40 _vectors.embedderName.documentTemplate. EXISTS'],
    ['_vectors.embedderName.fragments EXISTS', 'The vector filter is missing a fragment name.\n32:39 _vectors.embedderName.fragments EXISTS'],
    ['_vectors.embedderName.fragments. EXISTS', "The vector filter's fragment name is invalid.\n33:40 _vectors.embedderName.fragments. EXISTS"],
    ['_vectors.embedderName.fragments.test test EXISTS', 'Was expecting an operation like `EXISTS` or `NOT EXISTS` after the vector filter.\n38:49 _vectors.embedderName.fragments.test test EXISTS'],
    ['_vectors.embedderName.fragments. test EXISTS', "The vector filter's fragment name is invalid.\n33:45 _vectors.embedderName.fragments. test EXISTS"],
    ['_vectors.embedderName .fragments. test EXISTS', 'Was expecting an operation like `EXISTS` or `NOT EXISTS` after the vector filter.\n23:46 _vectors.embedderName .fragments. test EXISTS'],
    ['_vectors.embedderName .fragments.test EXISTS', 'Was expecting an operation like `EXISTS` or `NOT EXISTS` after the vector filter.\n23:45 _vectors.embedderName .fragments.test EXISTS'],
    ['_vectors.embedderName.fargments.test EXISTS', 'Was expecting one of `fragments`, `userProvided`, `documentTemplate`, `regenerate` or nothing, but instead found `fargments`. Did you mean `fragments`?\n23:32 _vectors.embedderName.fargments.test EXISTS'],
    ['_vectors.embedderName.zzz EXISTS', 'Was expecting one of `fragments`, `userProvided`, `documentTemplate`, `regenerate` or nothing, but instead found `zzz`.\n23:26 _vectors.embedderName.zzz EXISTS'],
    ['_vectors.embedderName."userProvided" EXISTS', 'Was expecting this part to be unquoted.\n24:36 _vectors.embedderName."userProvided" EXISTS'],
    ['_vectors.embedderName.userProvided.fragments.test EXISTS', 'Vector filter can only accept one of `fragments`, `userProvided`, `documentTemplate` or `regenerate`, but found both `userProvided` and `fragments`.\n36:45 _vectors.embedderName.userProvided.fragments.test EXISTS'],
  ]
  for (const [filter, message] of cases) t.equal(err(filter), message, filter)
})

t.test('parseFilter: empty filters, the array form and bad types', async (t) => {
  t.equal(p(''), null)
  t.equal(p('   '), null)
  t.equal(p(null), null)
  t.equal(p(undefined), null)
  t.equal(p([]), null)
  t.equal(p(['', ['  ']]), null)
  t.equal(p([[]]), null)
  t.equal(p(['channel = mv']), '{channel} = {mv}')
  t.equal(p([['channel = mv']]), '{channel} = {mv}')
  t.equal(p(['(channel = mv)']), '{channel} = {mv}')
  t.equal(p(['channel = gotaga', ['timestamp = 44', 'channel != ponce']]), 'AND[{channel} = {gotaga}, OR[{timestamp} = {44}, {channel} != {ponce}, ], ]')
  t.equal(p(['a = 1', 'b = 2 OR c = 3']), 'AND[{a} = {1}, OR[{b} = {2}, {c} = {3}, ], ]')
  t.equal(p([['a = 1', ''], 'b = 2']), 'AND[{a} = {1}, {b} = {2}, ]', 'blank items are skipped')

  t.equal(err(true), 'Invalid syntax for the filter parameter: `expected String, Array, found: true`.')
  t.equal(err(12), 'Invalid syntax for the filter parameter: `expected String, Array, found: 12`.')
  t.equal(err({ a: 1 }), 'Invalid syntax for the filter parameter: `expected String, Array, found: {"a":1}`.')
  t.equal(err(['a = 1', 3]), 'Invalid syntax for the filter parameter: `expected String, [String], found: 3`.')
  t.equal(err(['a = 1', null]), 'Invalid syntax for the filter parameter: `expected String, [String], found: null`.')
  t.equal(err([['a = 1', ['b = 2']]]), 'Invalid syntax for the filter parameter: `expected String, found: ["b = 2"]`.')
  t.equal(err([['a = 1', false]], 'invalid_document_filter'), 'Invalid syntax for the filter parameter: `expected String, found: false`.', 'the caller\'s code')
  t.equal(err(['title', 7]), 'Invalid syntax for the filter parameter: `expected String, [String], found: 7`.', 'types are checked before parsing')
  t.equal(err(['a = 1', ['b = 2', 'hello']]), `${OPS} at \`hello\`.\n1:6 hello`, 'positions are within the failing string')
  t.equal(err('cool doggo', 'invalid_document_filter'), `${OPS} at \`cool doggo\`.\n1:11 cool doggo`)
})

// ---- checkFilterable ---------------------------------------------------------------------------------------

function checkErr(filter: unknown, rules: unknown[], options: { containsFilter?: boolean; fieldExists?: (f: string) => boolean } = {}, code = CODE): { code: string; message: string } {
  const expr = parseFilter(filter, code)!
  try {
    checkFilterable(expr, rules, code, { containsFilter: options.containsFilter ?? false, fieldExists: options.fieldExists })
  } catch (e) {
    if (!(e instanceof TesseraError)) throw e
    return { code: e.code, message: e.message }
  }
  return { code: 'none', message: '' }
}

const okCheck = (filter: unknown, rules: unknown[], options: { containsFilter?: boolean } = {}) => checkErr(filter, rules, options).code === 'none'

t.test('checkFilterable: attributes', async (t) => {
  t.same(checkErr('dog = "bernese mountain"', []), { code: CODE, message: 'Attribute `dog` is not filterable. This index does not have configured filterable attributes.\n1:4 dog = "bernese mountain"' })
  t.same(checkErr('name = 12', ['title']), { code: CODE, message: 'Attribute `name` is not filterable. Available filterable attribute patterns are: `title`.\n1:5 name = 12' })
  t.same(checkErr('title = "test" AND name = 12', ['title']), { code: CODE, message: 'Attribute `name` is not filterable. Available filterable attribute patterns are: `title`.\n20:24 title = "test" AND name = 12' })
  t.same(checkErr('title = "test" AND name IN [12]', ['title']).message, 'Attribute `name` is not filterable. Available filterable attribute patterns are: `title`.\n20:24 title = "test" AND name IN [12]')
  t.same(checkErr('title = "test" AND name != 12', ['title']).message, 'Attribute `name` is not filterable. Available filterable attribute patterns are: `title`.\n20:24 title = "test" AND name != 12')
  t.equal(checkErr('doggo = bernese', [], {}, 'invalid_document_filter').code, 'invalid_document_filter', 'the caller\'s code')
  t.equal(checkErr('catto = jorts', ['doggo', 'color', 'age']).message, 'Attribute `catto` is not filterable. Available filterable attribute patterns are: `age`, `color`, `doggo`.\n1:6 catto = jorts', 'patterns are sorted')
  t.equal(checkErr('a = 1 AND b = 2 AND c = 3', ['c']).message, 'Attribute `b` is not filterable. Available filterable attribute patterns are: `c`.\n11:12 a = 1 AND b = 2 AND c = 3', 'milli reports the last offending attribute of an AND')
  t.equal(checkErr("'dog race' = x", ['a']).message, "Attribute `dog race` is not filterable. Available filterable attribute patterns are: `a`.\n2:10 'dog race' = x", 'quoted attributes are located inside the quotes')
  t.equal(checkErr('x = 1', [{ attributePatterns: ['x'], features: { facetSearch: true, filter: { equality: false, comparison: false } } }, 'y']).message,
    'Attribute `x` is not filterable. Available filterable attribute patterns are: `y`.\n1:2 x = 1', 'a rule with no filter feature makes its attributes unfilterable (first match wins)')
  t.equal(checkErr('x = 1', [{ attributePatterns: ['a*', '*b'], features: { filter: { equality: false, comparison: false } } }]).message,
    'Attribute `x` is not filterable. This index does not have configured filterable attributes.\n1:2 x = 1', 'patterns of non-filterable rules are not listed')

  t.ok(okCheck('doggo.name = kefir', ['doggo']), 'legacy rules cover nested attributes')
  t.notOk(okCheck('doggos = kefir', ['doggo']), 'but not attributes that merely share a prefix')
  t.ok(okCheck('anything = 1 AND else.deep = 3', [{ attributePatterns: ['*'] }]))
  t.notOk(okCheck('anything = 1', ['*']), 'a legacy string rule is a plain attribute name, not a pattern (milli `match_field_legacy`)')
  t.ok(okCheck('user_name = 1', [{ attributePatterns: ['user_*'] }]))
  t.ok(okCheck('created_at > 1', [{ attributePatterns: ['*_at'], features: { filter: { equality: true, comparison: true } } }]))
  t.ok(okCheck('xx_mid_yy = 1', [{ attributePatterns: ['*mid*'] }]))
  t.notOk(okCheck('other = 1', [{ attributePatterns: ['user_*'] }]))
  t.ok(okCheck('a = 1 OR NOT b IN [1] OR c EXISTS OR d IS NULL OR e IS EMPTY OR f STARTS WITH x', ['a', 'b', 'c', 'd', 'e', 'f']))
  t.ok(okCheck('_vectors.rest EXISTS AND _vectors EXISTS', []), 'vector filters need no filterable attribute')
})

t.test('checkFilterable: operators by rule features', async (t) => {
  const rules = [{ attributePatterns: ['doggos.age', 'price'], features: { facetSearch: false, filter: { equality: true, comparison: false } } }, 'title']
  const msg = (op: string, field: string, hint: string, allowed = 'OR, AND, NOT, =, !=, IN, IS EMPTY, IS NULL, EXISTS', rule = 0) =>
    `Filter operator \`${op}\` is not allowed for the attribute \`${field}\`.\n  - Note: allowed operators: ${allowed}.\n  - Note: field \`${field}\` matched rule #${rule} in \`filterableAttributes\`\n  - Hint: enable ${hint} in rule #${rule} by modifying the features.filter object\n  - Hint: prepend another rule matching \`${field}\` with appropriate filter features before rule #${rule}`
  t.same(checkErr('doggos.age > 2', rules), { code: CODE, message: msg('>', 'doggos.age', 'comparison') })
  t.equal(checkErr('price >= 2', rules).message, msg('>=', 'price', 'comparison'))
  t.equal(checkErr('price < 2', rules).message, msg('<', 'price', 'comparison'))
  t.equal(checkErr('price <= 2', rules).message, msg('<=', 'price', 'comparison'))
  t.equal(checkErr('price 1 TO 2', rules).message, msg('TO', 'price', 'comparison'))
  t.equal(checkErr('NOT price 1 TO 2', rules).message, msg('TO', 'price', 'comparison'), 'under NOT too')
  t.ok(okCheck('price = 2 AND price != 3 AND price IN [1] AND price EXISTS AND price IS NULL AND price IS EMPTY AND title > 3', rules))

  const comparisonOnly = [{ attributePatterns: ['n'], features: { filter: { equality: false, comparison: true } } }]
  t.equal(checkErr('n = 1', comparisonOnly).message, msg('=', 'n', 'equality', 'OR, AND, NOT, <, >, <=, >=, TO, IS EMPTY, IS NULL, EXISTS'))
  t.equal(checkErr('n != 1', comparisonOnly).message, msg('!=', 'n', 'equality', 'OR, AND, NOT, <, >, <=, >=, TO, IS EMPTY, IS NULL, EXISTS'))
  t.equal(checkErr('n IN [1, 2]', comparisonOnly).message, msg('=', 'n', 'equality', 'OR, AND, NOT, <, >, <=, >=, TO, IS EMPTY, IS NULL, EXISTS'), 'IN is checked as `=`')
  t.ok(okCheck('n IN []', comparisonOnly), 'an empty IN checks nothing')
  t.ok(okCheck('n > 1 AND n EXISTS', comparisonOnly))
  t.ok(okCheck('n = 1', [{ attributePatterns: ['n'], features: { filters: { equality: true, comparison: false } } }]), '`filters` is an alias of `filter`')
  t.equal(checkErr('n > 1', [{ attributePatterns: ['n'] }]).message, msg('>', 'n', 'comparison'), 'pattern rules default to equality only')
  t.equal(checkErr('x > 1', [{ attributePatterns: ['y'] }, { attributePatterns: ['x'] }]).message, msg('>', 'x', 'comparison', undefined, 1), 'the rule index is reported')
  t.equal(checkErr('price > 1 AND nope = 1', rules).message, 'Attribute `nope` is not filterable. Available filterable attribute patterns are: `doggos.age`, `price`, `title`.\n15:19 price > 1 AND nope = 1', 'attributes are checked before operators')
  t.equal(checkErr('title = a AND price > 1 AND doggos.age < 3', rules).message, msg('>', 'price', 'comparison'), 'operators are checked left to right')
  t.ok(checkErr('price > 1', rules, { fieldExists: () => false }).code === 'none', 'attributes the index has never seen are not operator-checked')
  t.equal(checkErr('price > 1', rules, { fieldExists: (f) => f === 'price' }).message, msg('>', 'price', 'comparison'))
})

t.test('checkFilterable: CONTAINS needs the containsFilter feature', async (t) => {
  t.same(checkErr('doggo CONTAINS kefir', ['doggo']), {
    code: 'feature_not_enabled',
    message: 'Using `CONTAINS` in a filter requires enabling the `contains filter` experimental feature. See https://github.com/orgs/meilisearch/discussions/763\n7:15 doggo CONTAINS kefir',
  })
  t.equal(checkErr('a = 1 OR doggo NOT CONTAINS kefir', ['doggo']).message, 'Using `CONTAINS` in a filter requires enabling the `contains filter` experimental feature. See https://github.com/orgs/meilisearch/discussions/763\n20:28 a = 1 OR doggo NOT CONTAINS kefir')
  t.equal(checkErr('nope CONTAINS kefir', []).code, 'feature_not_enabled', 'the feature is checked before the attributes')
  t.ok(okCheck('doggo CONTAINS kefir', ['doggo'], { containsFilter: true }))
  t.ok(okCheck('doggo STARTS WITH kef', ['doggo']), 'STARTS WITH is not gated')
  t.ok(okCheck('x CONTAINS y', [{ attributePatterns: ['x'], features: { filter: { equality: false, comparison: true } } }], { containsFilter: true }), 'CONTAINS is not tied to a filter feature')
})

t.test('checkFilterable: geo', async (t) => {
  t.equal(checkErr('_geoRadius(42, 150, 10)', []).message, 'Attribute `_geo` is not filterable. This index does not have configured filterable attributes.\n12:14 _geoRadius(42, 150, 10)')
  t.equal(checkErr('_geoBoundingBox([42, 150], [30, 10])', []).message, 'Attribute `_geo` is not filterable. This index does not have configured filterable attributes.\n18:20 _geoBoundingBox([42, 150], [30, 10])')
  t.equal(checkErr('_geoRadius(-100, 150, 10)', ['title']).message, 'Attribute `_geo` is not filterable. Available filterable attribute patterns are: `title`.\n12:16 _geoRadius(-100, 150, 10)')
  t.equal(checkErr('_geoBoundingBox([42, 150], [30, 10])', ['title']).message, 'Attribute `_geo` is not filterable. Available filterable attribute patterns are: `title`.\n18:20 _geoBoundingBox([42, 150], [30, 10])')
  t.equal(checkErr('_geoPolygon([1, 2], [3, 4], [5, 6])', ['title']).message, 'Attribute `_geo` is not filterable. Available filterable attribute patterns are: `title`.\n14:15 _geoPolygon([1, 2], [3, 4], [5, 6])')
  const geo = ['_geo', 'price']
  t.equal(checkErr('_geoRadius(-100, 150, 10)', geo).message, 'Bad latitude `-100`. Latitude must be contained between -90 and 90 degrees. \n12:16 _geoRadius(-100, 150, 10)')
  t.equal(checkErr('_geoRadius(-90.0000001, 150, 10)', geo).message, 'Bad latitude `-90.0000001`. Latitude must be contained between -90 and 90 degrees. \n12:23 _geoRadius(-90.0000001, 150, 10)')
  t.equal(checkErr('_geoRadius(-10, 250, 10)', geo).message, 'Bad longitude `250`. Longitude must be contained between -180 and 180 degrees. \n17:20 _geoRadius(-10, 250, 10)')
  t.equal(checkErr('_geoRadius(-10, 180.000001, 10)', geo).message, 'Bad longitude `180.000001`. Longitude must be contained between -180 and 180 degrees. \n17:27 _geoRadius(-10, 180.000001, 10)')
  t.equal(checkErr('_geoRadius(1e300, 0, 10)', geo).message.split('\n')[0], `Bad latitude \`1${'0'.repeat(300)}\`. Latitude must be contained between -90 and 90 degrees. `, 'no exponent notation')
  t.equal(checkErr('_geoRadius(1e999, 0, 10)', geo).message, 'Non finite floats are not supported\n12:17 _geoRadius(1e999, 0, 10)')
  t.equal(checkErr('_geoBoundingBox([-90.0000001, 150], [30, 10])', geo).message.split('\n')[0], 'Bad latitude `-90.0000001`. Latitude must be contained between -90 and 90 degrees. ')
  t.equal(checkErr('_geoBoundingBox([30, 10], [-90.0000001, 150])', geo).message.split('\n')[0], 'Bad latitude `-90.0000001`. Latitude must be contained between -90 and 90 degrees. ')
  t.equal(checkErr('_geoBoundingBox([30, 180.000001], [-30, 150])', geo).message.split('\n')[0], 'Bad longitude `180.000001`. Longitude must be contained between -180 and 180 degrees. ')
  t.equal(checkErr('_geoBoundingBox([10, 10], [30, 20])', geo).message, 'The top latitude `10` is below the bottom latitude `30`.\n32:34 _geoBoundingBox([10, 10], [30, 20])')
  t.equal(checkErr('_geoPolygon([1, 2], [3, 400], [5, 6])', geo).message, 'Bad longitude `400`. Longitude must be contained between -180 and 180 degrees. \n25:28 _geoPolygon([1, 2], [3, 400], [5, 6])')
  t.ok(okCheck('_geoRadius(45.4777599, 9.1967508, 0) AND _geoBoundingBox([50, 20], [40, 5]) AND _geoPolygon([1, 2], [3, 4], [5, 6])', geo))
  t.ok(okCheck('_geo.lat > 3', geo), '`_geo` covers its nested fields')
  t.ok(okCheck('_geoRadius(1, 2, 3)', [{ attributePatterns: ['_geo'], features: { filter: { equality: true, comparison: true } } }]))
})

// ---- matches -----------------------------------------------------------------------------------------------

function ids(filter: unknown, docs: Record<string, unknown>[]): unknown[] {
  const expr = parseFilter(filter, CODE)!
  return docs.filter((d) => matches(expr, d)).map((d) => d.id)
}

const DOCS: Record<string, unknown>[] = [
  { id: 1, title: 'Élan Vital', price: 10, tags: ['Red', 'blue'], stock: null, meta: { color: 'Red', size: 3 }, ok: true },
  { id: 2, title: 'elan vital', price: '20', tags: [], stock: 0, meta: { color: 'green' }, ok: false },
  { id: 3, title: '  Café  ', price: 30.5, tags: ['green'], meta: {}, variants: [{ sku: 'a1', qty: 2 }, { sku: 'b2', qty: 0 }] },
  { id: 4, price: -5, tags: ['RED', ['nested']], 'meta.color': 'blue', note: '' },
  { id: 5, title: 'Zebra', price: 'abc', tags: 'single' },
]

t.test('matches: equality and normalization', async (t) => {
  // milli's normalize_facet: trimmed, NFKD, lowercased; diacritics stay (Meilisearch: search/filters.rs
  // search_with_filter_string_notation, `title = Gläss`).
  t.same(ids('title = "elan vital"', DOCS), [2], 'case is folded, diacritics are not')
  t.same(ids('title = "ÉLAN VITAL"', DOCS), [1])
  t.same(ids('title = ELAN', DOCS), [])
  t.same(ids('title = café', DOCS), [3], 'stored strings are trimmed')
  t.same(ids('title = cafe', DOCS), [], 'an accent is not dropped')
  t.same(ids('price = 10', DOCS), [1])
  t.same(ids('price = 10.0', DOCS), [1], 'numbers compare as numbers')
  t.same(ids('price = 20', DOCS), [2], 'a numeric string matches as the same string')
  t.same(ids("price = '20.0'", DOCS), [], 'but not numerically: a string is a string facet only')
  t.same(ids('price = 020', DOCS), [])
  t.same(ids('price = abc', DOCS), [5])
  t.same(ids('tags = red', DOCS), [1, 4], 'arrays match when any element matches')
  t.same(ids('tags = nested', DOCS), [4], 'nested arrays are flattened')
  t.same(ids('tags = single', DOCS), [5])
  t.same(ids('ok = true', DOCS), [1], 'booleans compare as strings')
  t.same(ids('ok = TRUE', DOCS), [1])
  t.same(ids('ok = false', DOCS), [2])
  t.same(ids('meta.color = red', DOCS), [1], 'dot notation')
  t.same(ids('meta.color = blue', DOCS), [4], 'a key containing a dot matches too')
  t.same(ids('variants.sku = b2', DOCS), [3], 'arrays of objects')
  t.same(ids('variants.qty = 0', DOCS), [3])
  t.same(ids('missing = 1', DOCS), [], '`=` on a missing attribute is false')
  t.same(ids('stock = null', DOCS), [], 'null is no value')
})

t.test('matches: !=, IN, NOT IN, NOT', async (t) => {
  t.same(ids('title != "elan vital"', DOCS), [1, 3, 4, 5], '`!=` matches documents without the attribute')
  t.same(ids('price != 10', DOCS), [2, 3, 4, 5])
  t.same(ids('tags IN [blue, green]', DOCS), [1, 3])
  t.same(ids('tags NOT IN [blue, green]', DOCS), [2, 4, 5])
  t.same(ids('price IN []', DOCS), [])
  t.same(ids('NOT price IN []', DOCS), [1, 2, 3, 4, 5])
  t.same(ids('NOT tags = red', DOCS), [2, 3, 5])
  t.same(ids('NOT NOT tags = red', DOCS), [1, 4])
})

t.test('matches: ranges', async (t) => {
  t.same(ids('price > 10', DOCS), [2, 3, 5], 'numbers and numeric strings by value; other strings by the string range, as milli does')
  t.same(ids('price >= 10', DOCS), [1, 2, 3, 5])
  t.same(ids('price < 10', DOCS), [4])
  t.same(ids('price <= 10', DOCS), [1, 4])
  t.same(ids('price 10 TO 30', DOCS), [1, 2], 'TO is inclusive')
  t.same(ids('price 10 TO 30.5', DOCS), [1, 2, 3])
  t.same(ids('price -5 TO -5', DOCS), [4])
  t.same(ids('price 30 TO 10', DOCS), [], 'an inverted range is empty')
  t.same(ids('NOT price 10 TO 30', DOCS), [3, 4, 5])
  t.same(ids('title > m', DOCS), [5], 'string ranges compare normalized values with the raw bound')
  t.same(ids('title a TO f', DOCS), [1, 2, 3])
  t.same(ids('variants.qty >= 1', DOCS), [3])
  t.same(ids('missing > 0', DOCS), [])
})

t.test('matches: EXISTS, IS NULL, IS EMPTY', async (t) => {
  t.same(ids('stock EXISTS', DOCS), [1, 2], 'a null value exists')
  t.same(ids('stock NOT EXISTS', DOCS), [3, 4, 5])
  t.same(ids('stock IS NULL', DOCS), [1])
  t.same(ids('stock IS NOT NULL', DOCS), [2, 3, 4, 5], 'IS NOT NULL matches missing attributes')
  t.same(ids('tags IS EMPTY', DOCS), [2])
  t.same(ids('meta IS EMPTY', DOCS), [3], 'an empty object is empty')
  t.same(ids('note IS EMPTY', DOCS), [4], 'an empty string is empty')
  t.same(ids('tags IS NOT EMPTY', DOCS), [1, 3, 4, 5])
  t.same(ids('meta.color EXISTS', DOCS), [1, 2, 4])
  t.same(ids('meta EXISTS', DOCS), [1, 2, 3], 'an object attribute exists')
  t.same(ids('variants.sku EXISTS', DOCS), [3])
})

t.test('matches: CONTAINS and STARTS WITH', async (t) => {
  t.same(ids('title CONTAINS VIT', DOCS), [1, 2])
  t.same(ids('title CONTAINS "É"', DOCS), [1, 3], 'the needle is normalized too (decomposed: é is e + U+0301)')
  t.same(ids('title NOT CONTAINS vit', DOCS), [3, 4, 5])
  t.same(ids('title STARTS WITH EL', DOCS), [2], 'an accented first letter is not an unaccented one')
  t.same(ids('title STARTS WITH él', DOCS), [1])
  t.same(ids('title STARTS WITH caf', DOCS), [3], 'the stored value is trimmed')
  t.same(ids('tags STARTS WITH gr', DOCS), [3])
  t.same(ids('title NOT STARTS WITH el', DOCS), [1, 3, 4, 5])
})

t.test('matches: AND, OR and the array form', async (t) => {
  t.same(ids('tags = red AND price > 0', DOCS), [1])
  t.same(ids('tags = red OR price = 20', DOCS), [1, 2, 4])
  t.same(ids('tags = red AND price > 0 OR title = zebra', DOCS), [1, 5])
  t.same(ids('tags = red AND (price > 0 OR title = zebra)', DOCS), [1])
  t.same(ids(['tags = red', ['price = 10', 'price = -5']], DOCS), [1, 4])
  t.same(ids([['id = 2', 'id = 3'], 'title EXISTS'], DOCS), [2, 3])
})

t.test('matches: geo', async (t) => {
  const places = [
    { id: 'milan-napiz', _geo: { lat: 45.4777599, lng: 9.1967508 } },
    { id: 'milan-artico', _geo: { lat: 45.4632046, lng: 9.1719421 } },
    { id: 'paris', _geo: { lat: '48.8566', lng: '2.3522' } },
    { id: 'fiji', _geo: { lat: -17.7, lng: 178.1 } },
    { id: 'nowhere' },
  ]
  t.same(ids('_geoRadius(45.4777599, 9.1967508, 0)', places), ['milan-napiz'], 'a zero radius matches the exact point')
  t.same(ids('_geoRadius(45.472735, 9.184019, 2000)', places), ['milan-napiz', 'milan-artico'])
  t.same(ids('_geoRadius(45.472735, 9.184019, 1000000)', places), ['milan-napiz', 'milan-artico', 'paris'], 'string coordinates')
  t.same(ids('NOT _geoRadius(45.472735, 9.184019, 2000)', places), ['paris', 'fiji', 'nowhere'])
  t.same(ids('_geoBoundingBox([50, 10], [44, 2])', places), ['milan-napiz', 'milan-artico', 'paris'])
  t.same(ids('_geoBoundingBox([0, -170], [-20, 170])', places), ['fiji'], 'a box across the antimeridian')
  t.same(ids('_geoPolygon([46, 9], [46, 10], [45, 10], [45, 9])', places), ['milan-napiz', 'milan-artico'])
})

t.test('matches: _vectors', async (t) => {
  const docs = [
    { id: 1, _vectors: { rest: [0.1, 0.2] } },
    { id: 2, _vectors: { rest: { embeddings: [[0.1]], regenerate: true } } },
    { id: 3, _vectors: { other: null } },
    { id: 4 },
  ]
  t.same(ids('_vectors EXISTS', docs), [1, 2])
  t.same(ids('_vectors.rest EXISTS', docs), [1, 2])
  t.same(ids('_vectors.rest.userProvided EXISTS', docs), [1])
  t.same(ids('_vectors.rest.regenerate EXISTS', docs), [2])
  t.same(ids('_vectors.other NOT EXISTS', docs), [1, 2, 3, 4])
})

t.test('checkFilterFeatures: the parse-time feature check alone', async (t) => {
  const { checkFilterFeatures } = await import('../../../engine/filter/index.js')
  t.throws(() => checkFilterFeatures(parseFilter('x CONTAINS y', CODE)!, { containsFilter: false }), { code: 'feature_not_enabled' })
  t.doesNotThrow(() => checkFilterFeatures(parseFilter('x CONTAINS y', CODE)!, { containsFilter: true }))
  t.doesNotThrow(() => checkFilterFeatures(parseFilter('nope = 1', CODE)!, { containsFilter: false }), 'attributes are not checked')
})

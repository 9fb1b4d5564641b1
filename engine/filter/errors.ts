/**
 * Filter error messages, word for word those of Meilisearch's filter parser (`crates/filter-parser/src/error.rs`)
 * and of milli's filter evaluation (`crates/milli/src/search/facet/filter.rs`, `crates/milli/src/error.rs`).
 *
 * A located message is `<diagnostic>\n<column>:<column + length> <whole filter>`: the column is counted in
 * characters from the start of the line (nom_locate's `get_utf8_column`), the length in characters of the quoted
 * context, and the filter text is printed raw.
 */
import { editDistance } from '../errors/edit-distance.js'
import type { Token } from './ast.js'

export type ParseErrorKind =
  | { k: 'ReservedGeo'; name: string }
  | { k: 'GeoRadius' }
  | { k: 'GeoRadiusArgumentCount'; n: number }
  | { k: 'GeoBoundingBox' }
  | { k: 'GeoPolygon' }
  | { k: 'GeoPolygonNotEnoughPoints'; n: number }
  | { k: 'GeoCoordinatesNotPair'; n: number }
  | { k: 'MisusedGeoRadius' }
  | { k: 'MisusedGeoBoundingBox' }
  | { k: 'VectorFilterLeftover' }
  | { k: 'VectorFilterInvalidQuotes' }
  | { k: 'VectorFilterMissingEmbedder' }
  | { k: 'VectorFilterInvalidEmbedder' }
  | { k: 'VectorFilterMissingFragment' }
  | { k: 'VectorFilterInvalidFragment' }
  | { k: 'VectorFilterUnknownSuffix'; previous: string | null; value: string }
  | { k: 'VectorFilterOperation' }
  | { k: 'InvalidPrimary' }
  | { k: 'InvalidEscapedNumber' }
  | { k: 'ExpectedEof' }
  | { k: 'ExpectedValue'; reserved: boolean }
  | { k: 'MalformedValue' }
  | { k: 'InOpeningBracket' }
  | { k: 'InClosingBracket' }
  | { k: 'NonFiniteFloat' }
  | { k: 'InExpectedValue'; reserved: boolean }
  | { k: 'ReservedKeyword'; word: string }
  | { k: 'MissingClosingDelimiter'; c: string }
  /** A single expected character that was not found (nom's `char`); never displayed, always remapped. */
  | { k: 'Char'; c: string }
  /** An internal nom failure (tag, takeWhile1, ...); only displayed if it escapes every remapping. */
  | { k: 'Internal'; what: string }
  | { k: 'DepthLimitReached' }
  | { k: 'External'; message: string }

/** A parse error: its kind and the context it quotes (`start..end` in `src`). */
export interface ParseError {
  kind: ParseErrorKind
  src: string
  start: number
  end: number
}

const VECTOR_SUFFIXES = ['fragments', 'userProvided', 'documentTemplate', 'regenerate']

const OPERATIONS = 'Was expecting an operation `=`, `!=`, `>=`, `>`, `<=`, `<`, `IN`, `NOT IN`, `TO`, `EXISTS`, `NOT EXISTS`, `IS NULL`, `IS NOT NULL`, `IS EMPTY`, `IS NOT EMPTY`, `CONTAINS`, `NOT CONTAINS`, `STARTS WITH`, `NOT STARTS WITH`, `_geoRadius`, `_geoBoundingBox` or `_geoPolygon`'

const RESERVED_GEO_TAIL = "is a reserved keyword and thus can't be used as a filter expression. Use the `_geoRadius(latitude, longitude, distance)` or `_geoBoundingBox([latitude, longitude], [latitude, longitude])` built-in rules to filter on `_geo` coordinates."

/** Rust's `str::escape_debug`, which the parser applies to the quoted context. */
export function escapeDebug(s: string): string {
  let out = ''
  let first = true
  for (const ch of s) {
    switch (ch) {
      case '\0': out += '\\0'; break
      case '\t': out += '\\t'; break
      case '\r': out += '\\r'; break
      case '\n': out += '\\n'; break
      case '\\': out += '\\\\'; break
      case '"': out += '\\"'; break
      case "'": out += "\\'"; break
      default:
        if ((first && /\p{Grapheme_Extend}/u.test(ch)) || /[\p{Cc}\p{Cf}\p{Cn}\p{Co}\p{Cs}\p{Zl}\p{Zp}]/u.test(ch)) {
          out += `\\u{${ch.codePointAt(0)!.toString(16)}}`
        } else {
          out += ch
        }
    }
    first = false
  }
  return out
}

function diagnostic(kind: ParseErrorKind, input: string): string {
  const escaped = escapeDebug(input)
  switch (kind.k) {
    case 'ExpectedValue':
      if (input.trim() === '') return 'Was expecting a value but instead got nothing.'
      if (kind.reserved) return `Was expecting a value but instead got \`${escaped}\`, which is a reserved keyword. To use \`${escaped}\` as a field name or a value, surround it by quotes.`
      return `Was expecting a value but instead got \`${escaped}\`.`
    case 'MalformedValue': return `Malformed value: \`${escaped}\`.`
    case 'MissingClosingDelimiter': return `Expression \`${escaped}\` is missing the following closing delimiter: \`${kind.c}\`.`
    case 'InvalidPrimary': return `${OPERATIONS} ${input.trim() === '' ? 'but instead got nothing.' : `at \`${escaped}\`.`}`
    case 'InvalidEscapedNumber': return `Found an invalid escaped sequence number: \`${escaped}\`.`
    case 'ExpectedEof': return `Found unexpected characters at the end of the filter: \`${escaped}\`. You probably forgot an \`OR\` or an \`AND\` rule.`
    case 'GeoRadius': return 'The `_geoRadius` filter must be in the form: `_geoRadius(latitude, longitude, radius, optionalResolution)`.'
    case 'GeoRadiusArgumentCount': return `Was expecting 3 or 4 arguments for \`_geoRadius\`, but instead found ${kind.n}.`
    case 'GeoBoundingBox': return 'The `_geoBoundingBox` filter expects two pairs of arguments: `_geoBoundingBox([latitude, longitude], [latitude, longitude])`.'
    case 'GeoPolygon': return "The `_geoPolygon` filter doesn't match the expected format: `_geoPolygon([latitude, longitude], [latitude, longitude])`."
    case 'GeoPolygonNotEnoughPoints': return `The \`_geoPolygon\` filter expects at least 3 points but only ${kind.n} were specified`
    case 'GeoCoordinatesNotPair': return `Was expecting 2 coordinates but instead found ${kind.n}.`
    case 'ReservedGeo': return `\`${escapeDebug(kind.name)}\` ${RESERVED_GEO_TAIL}`
    case 'MisusedGeoRadius': return "The `_geoRadius` filter is an operation and can't be used as a value."
    case 'MisusedGeoBoundingBox': return "The `_geoBoundingBox` filter is an operation and can't be used as a value."
    case 'VectorFilterLeftover': return 'The vector filter has leftover tokens.'
    case 'VectorFilterUnknownSuffix': {
      if (kind.previous === null) {
        if (kind.value === '.') return 'Was expecting one of `.fragments`, `.userProvided`, `.documentTemplate`, `.regenerate` or nothing, but instead found a point without a valid value.'
        if (VECTOR_SUFFIXES.includes(kind.value)) return 'Was expecting this part to be unquoted.'
        const suggestion = VECTOR_SUFFIXES.find((s) => editDistance(kind.value, s) <= 2)
        const base = `Was expecting one of \`fragments\`, \`userProvided\`, \`documentTemplate\`, \`regenerate\` or nothing, but instead found \`${kind.value}\`.`
        return suggestion ? `${base} Did you mean \`${suggestion}\`?` : base
      }
      if (kind.value === '.') return 'Was expecting one of `.fragments`, `.userProvided`, `.documentTemplate`, `.regenerate` or nothing, but instead found a point without a valid value.'
      return `Vector filter can only accept one of \`fragments\`, \`userProvided\`, \`documentTemplate\` or \`regenerate\`, but found both \`${kind.previous}\` and \`${kind.value}\`.`
    }
    case 'VectorFilterInvalidFragment': return "The vector filter's fragment name is invalid."
    case 'VectorFilterMissingFragment': return 'The vector filter is missing a fragment name.'
    case 'VectorFilterMissingEmbedder': return 'Was expecting embedder name but found nothing.'
    case 'VectorFilterInvalidEmbedder': return "The vector filter's embedder name is invalid."
    case 'VectorFilterOperation': return 'Was expecting an operation like `EXISTS` or `NOT EXISTS` after the vector filter.'
    case 'VectorFilterInvalidQuotes': return 'The quotes in one of the values are inconsistent.'
    case 'ReservedKeyword': return `\`${kind.word}\` is a reserved keyword and thus cannot be used as a field name unless it is put inside quotes. Use "${kind.word}" or '${kind.word}' instead.`
    case 'InOpeningBracket': return 'Expected `[` after `IN` keyword.'
    case 'InClosingBracket': return 'Expected matching `]` after the list of field names given to `IN[`'
    case 'NonFiniteFloat': return 'Non finite floats are not supported'
    case 'InExpectedValue':
      if (kind.reserved) return `Expected only comma-separated field names inside \`IN[..]\` but instead found \`${escaped}\`, which is a keyword. To use \`${escaped}\` as a field name or a value, surround it by quotes.`
      return `Expected only comma-separated field names inside \`IN[..]\` but instead found \`${escaped}\`.`
    case 'DepthLimitReached': return 'The filter exceeded the maximum depth limit. Try rewriting the filter so that it contains fewer nested conditions.'
    case 'Char':
    case 'Internal': return `Encountered an internal \`${kind.k === 'Char' ? 'Char' : kind.what}\` error while parsing your filter. Please fill an issue`
    case 'External': return kind.message
  }
}

/** `column:column+length filter`: where the context starts (1-based, in characters, from the line start). */
export function location(src: string, start: number, end: number): string {
  const lineStart = src.lastIndexOf('\n', start - 1) + 1
  const column = [...src.slice(lineStart, start)].length + 1
  const size = [...src.slice(start, end)].length
  return `${column}:${column + size} ${src}`
}

export function formatParseError(e: ParseError): string {
  return `${diagnostic(e.kind, e.src.slice(e.start, e.end))}\n${location(e.src, e.start, e.end)}`
}

/** An evaluation error located on a token (milli's `token.as_external_error`). */
export function atToken(token: Token, message: string): string {
  return `${message}\n${location(token.src, token.start, token.end)}`
}

/**
 * liquidjs failures reworded as liquid-rust words them (the text Meilisearch puts in its errors):
 * `liquid: <message>\n` followed by `  with:` and `    key=value` context lines.
 *
 * - Unknown filter and unknown tag are exact (liquid-core's `parse_filter` and `Tag::parse_pair`).
 * - Other syntax errors keep liquid-rust's layout (pest's ` --> line:col` frame with a caret under the failing
 *   spot) but carry liquidjs's description of the problem: the two parsers differ, so the expected-token lists
 *   pest prints cannot be reproduced.
 * - A missing field or variable gives liquid-rust's `Unknown index` / `Unknown variable` with what was available.
 */
import { ALLOWED_FILTERS, BLOCK_NAMES, TAG_NAMES } from './liquid-language.js'

interface LiquidErrorShape {
  message: string
  name?: string
  token?: { input: string; begin: number; getPosition(): number[] }
  originalError?: Error
}

function context(pairs: [string, string][]): string {
  return pairs.length === 0 ? '' : `  with:\n${pairs.map(([k, v]) => `    ${k}=${v}\n`).join('')}`
}

/** Strip liquidjs's `, line:L, col:C` suffix. */
function bareMessage(message: string): string {
  return message.replace(/, line:\d+, col:\d+$/, '')
}

/** pest's error frame: where, the line, a caret (or `^-^` under a span) and the message. */
export function pestFrame(text: string, line: number, col: number, message: string, span = 0): string {
  const lineText = text.split('\n')[line - 1] ?? ''
  const number = String(line)
  const pad = ' '.repeat(number.length)
  const marker = span <= 0 ? '^---' : span === 1 ? '^' : `^${'-'.repeat(span - 2)}^`
  return `${pad}--> ${line}:${col}\n${pad} |\n${number} | ${lineText}\n${pad} | ${' '.repeat(Math.max(0, col - 1))}${marker}\n${pad} |\n${pad} = ${message}`
}

function position(text: string, offset: number): [number, number] {
  const before = text.slice(0, offset)
  const line = before.split('\n').length
  return [line, offset - before.lastIndexOf('\n')]
}

/** The `liquid: …` text of a failure to parse `text`. */
export function parseFailureText(err: unknown, text: string): string {
  const e = err as LiquidErrorShape
  const message = bareMessage(String(e?.message ?? err))
  const filter = /^undefined filter: (.*)$/.exec(message)
  if (filter) {
    return `liquid: Unknown filter\n${context([['requested filter', filter[1]!], ['available filters', ALLOWED_FILTERS.join(', ')]])}`
  }
  const begin = e?.token?.begin ?? 0
  const tag = /^tag "(.+)" not found$/.exec(message)
  if (tag) {
    // pest points at the tag's name, after `{%`, an optional `-` and blanks.
    const nameAt = begin + (/^\{%-?\s*/.exec(text.slice(begin))?.[0].length ?? 0)
    const [line, col] = position(text, nameAt)
    const frame = pestFrame(text, line, col, 'Unknown tag.', tag[1]!.length)
    return `liquid: ${frame}\n${context([['requested', tag[1]!], ['available tags', TAG_NAMES.join(', ')], ['available blocks', BLOCK_NAMES.join(', ')]])}`
  }
  const [line, col] = e?.token ? e.token.getPosition() : [1, 1]
  return `liquid: ${pestFrame(text, line ?? 1, col ?? 1, message)}\n`
}

/** The `liquid: …` text of a failure to render with `scope` (the variables the template could read). */
export function renderFailureText(err: unknown, scope: Record<string, unknown>): string {
  const e = err as LiquidErrorShape
  const message = bareMessage(String(e?.message ?? err))
  const undefinedVariable = /^undefined variable: (.*)$/.exec(message)
  if (undefinedVariable) return unknownPath(undefinedVariable[1]!.split('.'), scope)
  return `liquid: ${message}\n`
}

function unknownPath(segments: string[], scope: Record<string, unknown>): string {
  const [name = '', ...indexes] = segments
  if (!Object.prototype.hasOwnProperty.call(scope, name)) {
    return `liquid: Unknown variable\n${context([['requested variable', name], ['available variables', Object.keys(scope).sort().join(', ')]])}`
  }
  let current: unknown = scope[name]
  const walked = [name]
  for (const index of indexes) {
    const isArray = Array.isArray(current)
    const isObject = current !== null && typeof current === 'object' && !isArray
    const has = isArray ? /^-?\d+$/.test(index) && (current as unknown[]).at(Number(index)) !== undefined
      : isObject && Object.prototype.hasOwnProperty.call(current, index)
    if (!has) {
      const pairs: [string, string][] = [['variable', walked.join('.')], ['requested index', index]]
      if (isObject) pairs.push(['available indexes', Object.keys(current as object).join(', ')])
      return `liquid: Unknown index\n${context(pairs)}`
    }
    current = isArray ? (current as unknown[]).at(Number(index)) : (current as Record<string, unknown>)[index]
    walked.push(index)
  }
  return `liquid: Unknown index\n${context([['variable', walked.join('.')]])}`
}

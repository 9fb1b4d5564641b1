/**
 * String and character built-ins of Rhai's string packages. Lengths and positions count Unicode characters;
 * negative positions count from the end. Methods Rhai defines as modifying the string in place (`trim`,
 * `replace`, `pad`, `truncate`, `crop`, `clear`, `remove`, `make_upper`, `append`...) return `()` and update
 * the string through `setThis`; the others return a new value.
 */
import { runtime, systemError } from '../errors.js'
import { display } from '../format.js'
import { RChar, RRange, charLength, charsOf, utf8Length, type Value } from '../values.js'
import { clampLength, clampStart, isInt, isStr, type Getter, type Native, type NativeCall } from './native.js'

/** A string or character argument as text. */
const text = (v: Value | undefined): string | undefined => (isStr(v) ? v : v instanceof RChar ? v.c : undefined)

function charged(call: NativeCall, s: string): string {
  call.ctx.budget.charge(s.length)
  return s
}

function checkLength(call: NativeCall, s: string): string {
  const max = call.ctx.budget.limits.maxStringSize
  if (s.length * 3 > max && utf8Length(s) > max) throw systemError(runtime.dataTooLarge('Length of string'))
  return s
}

function subString(s: string, start: bigint, len: bigint): string {
  if (s === '' || len <= 0n) return ''
  const chars = charsOf(s)
  const offset = start < 0n ? clampStart(chars.length, start) : start >= BigInt(chars.length) ? chars.length : Number(start)
  return chars.slice(offset, offset + clampLength(len, chars.length - offset)).join('')
}

/** A range as a start and a length (Rhai clamps the start at 0 and the end at the start). */
function rangeSpan(r: RRange): [bigint, bigint] {
  const start = r.start < 0n ? 0n : r.start
  const end = r.end < start ? start : r.end
  return [start, end - start + (r.inclusive ? 1n : 0n)]
}

/** Rhai's `index_of` start position: negative counts from the end; past the end finds nothing. */
function indexOf(s: string, find: string, start: bigint): bigint {
  if (s === '') return -1n
  const chars = charsOf(s)
  let from = 0
  if (start < 0n) from = clampStart(chars.length, start)
  else if (start >= BigInt(chars.length)) return -1n
  else from = Number(start)
  const prefix = chars.slice(0, from).join('')
  const at = s.indexOf(find, prefix.length)
  return at < 0 ? -1n : BigInt(charLength(s.slice(0, at)))
}

function method(f: (call: NativeCall, s: string, rest: (Value | undefined)[]) => Value | undefined): Native {
  return (call) => {
    const [s, ...rest] = call.args
    return isStr(s) ? f(call, s, rest) : undefined
  }
}

/** Set the string to `next`, answering `()` (methods that modify in place). */
function update(call: NativeCall, next: string): Value {
  call.setThis(checkLength(call, next))
  return null
}

export const stringNatives: Record<string, Native> = {
  len: method((_, s, rest) => (rest.length === 0 ? BigInt(charLength(s)) : undefined)),
  bytes: method((_, s, rest) => (rest.length === 0 ? BigInt(utf8Length(s)) : undefined)),
  to_upper: (call) => {
    const [x, ...rest] = call.args
    if (rest.length > 0) return undefined
    if (isStr(x)) return charged(call, x.toUpperCase())
    if (x instanceof RChar) return new RChar(x.c.toUpperCase().length === x.c.length ? x.c.toUpperCase() : x.c)
    return undefined
  },
  to_lower: (call) => {
    const [x, ...rest] = call.args
    if (rest.length > 0) return undefined
    if (isStr(x)) return charged(call, x.toLowerCase())
    if (x instanceof RChar) return new RChar(x.c.toLowerCase().length === x.c.length ? x.c.toLowerCase() : x.c)
    return undefined
  },
  make_upper: (call) => {
    const [x, ...rest] = call.args
    if (rest.length > 0) return undefined
    if (isStr(x)) return update(call, x.toUpperCase())
    if (x instanceof RChar) {
      call.setThis(new RChar(x.c.toUpperCase().length === x.c.length ? x.c.toUpperCase() : x.c))
      return null
    }
    return undefined
  },
  make_lower: (call) => {
    const [x, ...rest] = call.args
    if (rest.length > 0) return undefined
    if (isStr(x)) return update(call, x.toLowerCase())
    if (x instanceof RChar) {
      call.setThis(new RChar(x.c.toLowerCase().length === x.c.length ? x.c.toLowerCase() : x.c))
      return null
    }
    return undefined
  },
  trim: method((call, s, rest) => (rest.length === 0 ? update(call, s.trim()) : undefined)),
  starts_with: method((call, s, [find, ...rest]) => (rest.length === 0 && text(find) !== undefined ? s.startsWith(text(find)!) : undefined)),
  ends_with: method((call, s, [find, ...rest]) => (rest.length === 0 && text(find) !== undefined ? s.endsWith(text(find)!) : undefined)),
  index_of: method((call, s, [find, start, ...rest]) => {
    if (rest.length > 0 || text(find) === undefined || (start !== undefined && !isInt(start))) return undefined
    call.ctx.budget.charge(s.length)
    return indexOf(s, text(find)!, start ?? 0n)
  }),
  sub_string: method((call, s, [start, len, ...rest]) => {
    if (start instanceof RRange && len === undefined && rest.length === 0) return subString(s, ...rangeSpan(start))
    if (rest.length > 0 || !isInt(start) || (len !== undefined && !isInt(len))) return undefined
    call.ctx.budget.charge(s.length)
    return subString(s, start, len ?? BigInt(s.length))
  }),
  crop: method((call, s, [start, len, ...rest]) => {
    if (start instanceof RRange && len === undefined && rest.length === 0) return update(call, subString(s, ...rangeSpan(start)))
    if (rest.length > 0 || !isInt(start) || (len !== undefined && !isInt(len))) return undefined
    call.ctx.budget.charge(s.length)
    return update(call, subString(s, start, len ?? BigInt(s.length)))
  }),
  truncate: method((call, s, [len, ...rest]) => {
    if (rest.length > 0 || !isInt(len)) return undefined
    return update(call, len <= 0n ? '' : charsOf(s).slice(0, clampLength(len, charLength(s))).join(''))
  }),
  clear: method((call, _s, rest) => (rest.length === 0 ? update(call, '') : undefined)),
  replace: method((call, s, [find, sub, ...rest]) => {
    const f = text(find)
    const r = text(sub)
    if (rest.length > 0 || f === undefined || r === undefined) return undefined
    call.ctx.budget.charge(s.length)
    return update(call, s === '' ? s : s.split(f).join(r))
  }),
  remove: method((call, s, [find, ...rest]) => {
    const f = text(find)
    if (rest.length > 0 || f === undefined) return undefined
    call.ctx.budget.charge(s.length)
    return update(call, s.split(f).join(''))
  }),
  pad: method((call, s, [len, padding, ...rest]) => {
    const p = text(padding)
    if (rest.length > 0 || !isInt(len) || p === undefined) return undefined
    if (len <= 0n) return null
    if (len > BigInt(call.ctx.budget.limits.maxStringSize)) throw systemError(runtime.dataTooLarge('Length of string'))
    const current = charLength(s)
    const target = Number(len)
    if (target <= current || p === '') return null
    const unit = charsOf(p)
    const out: string[] = [s]
    for (let n = current; n < target; n += unit.length) out.push(n + unit.length <= target ? p : unit.slice(0, target - n).join(''))
    call.ctx.budget.charge(target)
    return update(call, out.join(''))
  }),
  append: method((call, s, [item, ...rest]) => (rest.length === 0 && item !== undefined ? update(call, s + display(item)) : undefined)),
  pop: method((call, s, [count, ...rest]) => {
    if (rest.length > 0) return undefined
    const chars = charsOf(s)
    if (count === undefined) {
      if (chars.length === 0) return null
      const last = chars.pop()!
      call.setThis(chars.join(''))
      return new RChar(last)
    }
    if (!isInt(count)) return undefined
    if (s === '' || count <= 0n) return ''
    const n = clampLength(count, chars.length)
    const tail = chars.splice(chars.length - n, n)
    call.setThis(chars.join(''))
    return tail.join('')
  }),
  get: method((_, s, [index, ...rest]) => {
    if (rest.length > 0 || !isInt(index)) return undefined
    const chars = charsOf(s)
    const i = index >= 0n ? index : BigInt(chars.length) + index
    return i >= 0n && i < BigInt(chars.length) ? new RChar(chars[Number(i)]!) : null
  }),
  set: method((call, s, [index, ch, ...rest]) => {
    if (rest.length > 0 || !isInt(index) || !(ch instanceof RChar)) return undefined
    const chars = charsOf(s)
    const i = index >= 0n ? index : BigInt(chars.length) + index
    if (i >= 0n && i < BigInt(chars.length)) chars[Number(i)] = ch.c
    return update(call, chars.join(''))
  }),
  split: method((call, s, [by, segments, ...rest]) => {
    if (rest.length > 0) return undefined
    call.ctx.budget.charge(s.length)
    if (by === undefined) return s === '' ? [] : s.split(/[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+/u).filter((x) => x !== '')
    if (isInt(by) && segments === undefined) {
      const chars = charsOf(s)
      const at = by <= 0n ? clampStart(chars.length, by) : by > BigInt(chars.length) ? chars.length : Number(by)
      return [chars.slice(0, at).join(''), chars.slice(at).join('')]
    }
    const d = text(by)
    if (d === undefined) return undefined
    if (segments === undefined) return s.split(d)
    if (!isInt(segments)) return undefined
    if (segments < 1n) return [s]
    const parts = s.split(d)
    const n = Number(segments > BigInt(parts.length) ? BigInt(parts.length) : segments)
    return [...parts.slice(0, n - 1), parts.slice(n - 1).join(d)]
  }),
  split_rev: method((call, s, [by, ...rest]) => {
    const d = text(by)
    if (rest.length > 0 || d === undefined) return undefined
    call.ctx.budget.charge(s.length)
    return s.split(d).reverse()
  }),
  chars: method((call, s, rest) => (rest.length === 0 ? charsOf(charged(call, s)).map((c) => new RChar(c)) : undefined)),
  to_chars: method((call, s, rest) => (rest.length === 0 ? charsOf(charged(call, s)).map((c) => new RChar(c)) : undefined)),
}

/** `contains` and `is_empty` for strings (arrays and maps have their own overloads). */
export function stringContains(s: string, find: Value): boolean | undefined {
  const f = text(find)
  return f === undefined ? undefined : s.includes(f)
}

export const stringGetters: Record<string, Getter> = {
  len: (s) => BigInt(charLength(s as string)),
  is_empty: (s) => s === '',
  bytes: (s) => BigInt(utf8Length(s as string)),
}

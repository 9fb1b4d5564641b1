/**
 * The standard methods scripts use on strings, arrays and maps, with Rhai's rules: character positions,
 * negative positions from the end, in-place methods returning `()`, callbacks with an optional index.
 */
import t from 'tap'
import { show } from '../../helpers/rhai.js'

const strings: [string, string][] = [
  ['"héllo".len()', '5'], ['"héllo".len', '5'], ['"héllo".bytes', '6'], ['"".is_empty()', 'true'], ['"x".is_empty', 'false'],
  ['"Ab".to_upper()', '"AB"'], ['"Ab".to_lower()', '"ab"'], ["'a'.to_upper()", "'A'"], ['let s = "ab"; s.make_upper(); s', '"AB"'],
  ['let s = "  a b  "; let r = s.trim(); [r, s]', '[(), "a b"]'],
  ['"hello".contains("ell")', 'true'], ["\"hello\".contains('z')", 'false'], ['"hello".starts_with("he")', 'true'], ['"hello".ends_with("lo")', 'true'],
  ["\"hello\".starts_with('h')", 'true'],
  ['let s = "hello, world"; s.replace("o", "0"); s', '"hell0, w0rld"'], ["let s = \"a-b\"; s.replace('-', '+'); s", '"a+b"'],
  ['"hello".sub_string(1, 3)', '"ell"'], ['"hello".sub_string(2)', '"llo"'], ['"hello".sub_string(-3, 2)', '"ll"'], ['"hello".sub_string(10)', '""'],
  ['"hello".sub_string(1..3)', '"el"'], ['"hello".sub_string(1..=3)', '"ell"'], ['"héllo".sub_string(1, 1)', '"é"'],
  ['"a,b,,c".split(",")', '["a", "b", "", "c"]'], ["\"a b\".split(' ')", '["a", "b"]'], ['"  a  b ".split()', '["a", "b"]'],
  ['"a,b,c".split(",", 2)', '["a", "b,c"]'], ['"hello".split(2)', '["he", "llo"]'], ['"hello".split(-1)', '["hell", "o"]'],
  ['"hello".index_of("l")', '2'], ["\"hello\".index_of('l', 3)", '3'], ['"hello".index_of("z")', '-1'], ['"héllo".index_of("l")', '2'],
  ["let s = \"ab\"; s.pad(5, '.'); s", '"ab..."'], ['let s = "ab"; s.pad(6, "xy"); s', '"abxyxy"'], ['let s = "abc"; s.pad(2, "x"); s', '"abc"'],
  ['"héllo".chars()', "['h', 'é', 'l', 'l', 'o']"], ['"ab".to_chars()', "['a', 'b']"],
  ['let s = "hello"; s.truncate(2); s', '"he"'], ['let s = "hello"; s.crop(1, 3); s', '"ell"'], ['let s = "hello"; s.clear(); s', '""'],
  ['let s = "banana"; s.remove("an"); s', '"ba"'], ['let s = "abc"; let c = s.pop(); [c, s]', "['c', \"ab\"]"], ['let s = "abc"; s.pop(2)', '"bc"'],
  ['"abc".get(1)', "'b'"], ['"abc".get(-1)', "'c'"], ['"abc".get(9)', '()'], ['let s = "abc"; s.set(0, \'x\'); s', '"xbc"'],
  ['let s = "a"; s.append(1); s.append("b"); s', '"a1b"'],
  ['"42".parse_int() + "1.5".parse_float()', '43.5'], ['"x".to_string() + 1.to_string()', '"x1"'],
]

const arrays: [string, string][] = [
  ['[1, 2].len()', '2'], ['[1, 2].len', '2'], ['[].is_empty()', 'true'],
  ['let a = [1]; a.push(2); a.push([3]); a', '[1, 2, [3]]'], ['let a = [1]; a.append([2, 3]); a', '[1, 2, 3]'],
  ['let a = [1, 3]; a.insert(1, 2); a.insert(99, 4); a.insert(-1, 9); a', '[1, 2, 3, 9, 4]'],
  ['let a = [1, 2, 3]; [a.pop(), a.shift(), a]', '[3, 1, [2]]'], ['[].pop()', '()'],
  ['let a = [1, 2, 3]; [a.remove(1), a]', '[2, [1, 3]]'], ['let a = [1]; a.remove(5)', '()'],
  ['[1, 2, 3, 4].extract(1, 2)', '[2, 3]'], ['[1, 2, 3, 4].extract(-2)', '[3, 4]'],
  ['let a = [1, 2, 3]; a.truncate(1); a', '[1]'], ['let a = [1, 2, 3]; a.chop(1); a', '[3]'], ['let a = [1, 2]; a.clear(); a', '[]'],
  ['let a = [1, 2, 3]; a.reverse(); a', '[3, 2, 1]'], ['let a = [1]; a.pad(3, 0); a', '[1, 0, 0]'],
  ['[1, 2, 3].contains(2)', 'true'], ['[1, "a"].contains("a")', 'true'], ['[1.0].contains(1)', 'true'],
  ['[5, 6, 7].index_of(6)', '1'], ['[5, 6, 7].index_of(|x| x > 5)', '1'], ['[5, 6, 7].index_of(9)', '-1'], ['[5, 6, 5].index_of(5, 1)', '2'],
  ['[1, 2, 3, 4].filter(|x| x % 2 == 0)', '[2, 4]'], ['[1, 2, 3].filter(|x, i| i > 0)', '[2, 3]'],
  ['[1, 2, 3].map(|x| x * 10)', '[10, 20, 30]'], ['["a", "b"].map(|x, i| x + i)', '["a0", "b1"]'],
  ['[1, 2, 3].reduce(|sum, x| sum + x, 0)', '6'], ['[1, 2, 3].reduce(|sum, x| if sum == () { x } else { sum + x })', '6'],
  ['["a", "b"].reduce_rev(|s, x| s + x, "")', '"ba"'],
  ['[1, 2].some(|x| x > 1)', 'true'], ['[1, 2].all(|x| x > 1)', 'false'], ['[1, 2].none(|x| x > 5)', 'true'],
  ['[1, 2, 3].find(|x| x > 1)', '2'], ['[1, 2].find(|x| x > 5)', '()'], ['[1, 2].find_map(|x| if x > 1 { x * 100 })', '200'],
  ['let a = [3, 1, 2]; a.sort(); a', '[1, 2, 3]'], ['let a = ["b", "a"]; a.sort(); a', '["a", "b"]'], ['let a = [1, 3, 2]; a.sort(|x, y| y - x); a', '[3, 2, 1]'],
  ['let a = [1, 3, 2]; a.sort_desc(); a', '[3, 2, 1]'], ['let a = [1, 1, 2, 1]; a.dedup(); a', '[1, 2, 1]'],
  ['let a = [1, 2, 3, 4]; let r = a.retain(|x| x > 2); [a, r]', '[[3, 4], [1, 2]]'], ['let a = [1, 2, 3, 4]; let r = a.drain(|x| x > 2); [a, r]', '[[1, 2], [3, 4]]'],
  ['let a = [1, 2, 3, 4]; a.drain(1, 2); a', '[1, 4]'], ['let a = [1, 2, 3]; a.splice(1, 1, ["x", "y"]); a', '[1, "x", "y", 3]'],
  ['let a = [1, 2, 3]; let b = a.split(1); [a, b]', '[[1], [2, 3]]'], ['[1, 2].get(1)', '2'], ['[1, 2].get(5)', '()'],
  ['let a = [1, 2]; a.set(0, 9); a', '[9, 2]'], ['["a", 1, 2.0].join(", ")', '"a, 1, 2.0"'],
  ['fn big(x) { x > 1 } [1, 2, 3].filter("big")', '[2, 3]'], ['[1, 2, 3].filter(Fn("is_odd"))', '[1, 3]'],
]

const maps: [string, string][] = [
  ['#{b: 1, a: 2}.keys()', '["a", "b"]'], ['#{b: 1, a: 2}.values()', '[2, 1]'], ['#{a: 1}.len()', '1'], ['#{}.is_empty()', 'true'],
  ['#{a: 1}.contains("a")', 'true'], ['#{a: 1}.contains("b")', 'false'], ['let m = #{a: 1, b: 2}; [m.remove("a"), m]', '[1, #{"b": 2}]'],
  ['#{a: 1}.remove("zz")', '()'], ['#{a: 1}.get("a")', '1'], ['let m = #{}; m.set("k", [1]); m', '#{"k": [1]}'],
  ['let m = #{a: 1}; m.clear(); m', '#{}'], ['let m = #{a: 1}; m.mixin(#{b: 2, a: 3}); m', '#{"a": 3, "b": 2}'],
  ['let m = #{a: 1}; m.fill_with(#{a: 5, b: 2}); m', '#{"a": 1, "b": 2}'],
  ['#{a: 1, b: 2}.filter(|k, v| v > 1)', '#{"b": 2}'], ['#{a: 1, b: 2}.map(|k, v| k + v)', '#{"a": "a1", "b": "b2"}'],
  ['let m = #{a: 1, b: 2}; m.drain(|k, v| v > 1); m', '#{"a": 1}'], ['let m = #{a: 1, b: 2}; m.retain(|k, v| v > 1); m', '#{"b": 2}'],
  ['#{b: [1.0, ()], a: "x"}.to_json()', '"{\\"a\\":\\"x\\",\\"b\\":[1.0,null]}"'],
  ['let m = #{}; for k in m.keys() { } m.len', '()'],
]

for (const [name, cases] of [['strings', strings], ['arrays', arrays], ['maps', maps]] as const) {
  t.test(name, async (t) => {
    for (const [src, expected] of cases) {
      let got: string
      try {
        got = show(src)
      } catch (err) {
        got = `error: ${(err as Error).message}`
      }
      t.equal(got, expected, src)
    }
  })
}

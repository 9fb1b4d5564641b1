import t from 'tap'
import assert from 'node:assert/strict'
import { mkdtempSync, openSync, rmSync, writeFileSync, writeSync, closeSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  parsePayloadChunk,
  validatePayloadFile,
  type PayloadValidation,
  type PayloadValidationOptions,
} from '../../../engine/payload/documents.js'
import type { PayloadFormat } from '../../../engine/tasks/types.js'

const dir = mkdtempSync(join(tmpdir(), 'tessera-payload-'))
t.teardown(() => rmSync(dir, { recursive: true, force: true }))
let seq = 0

async function check(format: PayloadFormat, body: string | Buffer, options?: PayloadValidationOptions & { delimiter?: string }) {
  const path = join(dir, `p${seq++}`)
  writeFileSync(path, body)
  const source = { path, format, csvDelimiter: options?.delimiter ?? ',' }
  const r = await validatePayloadFile(source, options)
  let docs: unknown[] | undefined
  if (r.ok) {
    docs = []
    for (const [start, end] of r.chunks) docs.push(...(await parsePayloadChunk({ ...source, start, end, csvHeader: r.csvHeader })))
  }
  // A small payload is read from memory instead of its file (payload/files.ts): every case must read the same.
  const inMemory = { ...source, bytes: Buffer.from(body) }
  const m = await validatePayloadFile(inMemory, options)
  assert.deepStrictEqual(m, r, 'validation from memory differs from validation from the file')
  if (m.ok) {
    const memDocs: unknown[] = []
    for (const [start, end] of m.chunks) memDocs.push(...(await parsePayloadChunk({ ...inMemory, start, end, csvHeader: m.csvHeader })))
    assert.deepStrictEqual(memDocs, docs, 'documents parsed from memory differ from those parsed from the file')
  }
  return { r, docs, path }
}

const docsOf = async (format: PayloadFormat, body: string | Buffer, options?: PayloadValidationOptions & { delimiter?: string }) => {
  const { r, docs } = await check(format, body, options)
  if (!r.ok) throw new Error(r.message)
  return docs
}
const messageOf = async (format: PayloadFormat, body: string | Buffer, options?: PayloadValidationOptions & { delimiter?: string }) => {
  const { r } = await check(format, body, options)
  return r.ok ? null : r.message
}
const jsonError = (format: 'json' | 'ndjson', detail: string) =>
  `The \`${format}\` payload provided is malformed. \`Couldn't serialize document value: ${detail}\`.`
const csvError = (detail: string) => `The \`csv\` payload provided is malformed: \`${detail}\`.`

t.test('json: an array of objects or a single object', async (t) => {
  t.same(await docsOf('json', '[{"id":1,"a":"x"},{"id":2,"n":{"deep":[1,2,{"z":null}]}}]'), [
    { id: 1, a: 'x' },
    { id: 2, n: { deep: [1, 2, { z: null }] } },
  ])
  t.same(await docsOf('json', ' \n {"id": 1, "title": "é \\" \\\\ \\u00e9"} \n'), [{ id: 1, title: 'é " \\ é' }])
  t.same(await docsOf('json', '[]'), [])
  t.same(await docsOf('json', '[ \n ]'), [])
  const { r } = await check('json', '[{"a":1}, {"b":2}]')
  t.same(r, { ok: true, documents: 2, chunks: [[1, 17]] })
  // serde's sequence visitor stops at the closing bracket: what follows is never read (as Meilisearch does).
  t.same(await docsOf('json', '[{"a":1}] trailing garbage \xff'), [{ a: 1 }])
  t.same(await docsOf('json', '[{"__proto__":{"x":1},"k":"v"}]'), [JSON.parse('{"__proto__":{"x":1},"k":"v"}')])
})

t.test('ndjson: objects separated by whitespace, blank lines skipped', async (t) => {
  t.same(await docsOf('ndjson', '{"id":1}\n{"id":2}\n'), [{ id: 1 }, { id: 2 }])
  t.same(await docsOf('ndjson', '\n\n{"id":1}\r\n\n  \n{"id":2}{"id":3} {"id":\n4}\n\n'), [{ id: 1 }, { id: 2 }, { id: 3 }, { id: 4 }])
  t.same(await docsOf('ndjson', '{"id":1}'), [{ id: 1 }])
  // A blank payload holds no document (only a 0-byte payload is missing).
  const { r } = await check('ndjson', ' \n\n ')
  t.same(r, { ok: true, documents: 0, chunks: [] })
})

t.test('missing payloads', async (t) => {
  for (const format of ['json', 'ndjson', 'csv'] as const) {
    const { r } = await check(format, '')
    t.same(r, { ok: false, code: 'missing_payload', message: `A ${format} payload is missing.` })
  }
})

t.test('json and ndjson errors as Meilisearch words them', async (t) => {
  // From meilisearch's tests/documents/add_documents.rs snapshots.
  t.equal(await messageOf('json', '[{"id": 1}, {id: 2}]'), jsonError('json', 'key must be a string at line 1 column 14'))
  t.equal(await messageOf('ndjson', '{"id": 1}\n{id: 2}'), jsonError('ndjson', 'key must be a string at line 2 column 2'))
  const long = '0123456789'.repeat(10)
  t.equal(await messageOf('json', `"${long}"`), jsonError('json', 'data are neither an object nor a list of objects'))
  t.equal(await messageOf('json', `"${long}m"`), jsonError('json', 'data are neither an object nor a list of objects'))
  // serde_json's own wording and positions, over the whole payload.
  t.equal(await messageOf('json', '{"malormed": "payload"'), jsonError('json', 'EOF while parsing an object at line 1 column 22'))
  t.equal(await messageOf('json', '  \n '), jsonError('json', 'EOF while parsing a value at line 2 column 1'))
  t.equal(await messageOf('json', '['), jsonError('json', 'EOF while parsing a list at line 1 column 1'))
  t.equal(await messageOf('json', '[{"a":1},'), jsonError('json', 'EOF while parsing a value at line 1 column 9'))
  t.equal(await messageOf('json', '[{"a":1}\n'), jsonError('json', 'EOF while parsing a list at line 2 column 0'))
  t.equal(await messageOf('json', '[{"a":1},\n{"b":'), jsonError('json', 'EOF while parsing a value at line 2 column 5'))
  t.equal(await messageOf('json', '[{"a":1},\n{"b":"x'), jsonError('json', 'EOF while parsing a string at line 2 column 7'))
  t.equal(await messageOf('json', '[{"a":1},]'), jsonError('json', 'trailing comma at line 1 column 10'))
  t.equal(await messageOf('json', '[{"a":1} {"b":2}]'), jsonError('json', 'expected `,` or `]` at line 1 column 10'))
  t.equal(await messageOf('json', '{"a":1} x'), jsonError('json', 'trailing characters at line 1 column 9'))
  t.equal(await messageOf('json', '{"a":1}}'), jsonError('json', 'trailing characters at line 1 column 8'))
  t.equal(await messageOf('json', '[,]'), jsonError('json', 'expected value at line 1 column 2'))
  t.equal(await messageOf('json', '[tru]'), jsonError('json', 'expected ident at line 1 column 5'))
  t.equal(await messageOf('json', '[1x]'), jsonError('json', 'expected `,` or `]` at line 1 column 3'))
  t.equal(await messageOf('json', '\ufeff[]'), jsonError('json', 'expected value at line 1 column 1'))
  t.equal(await messageOf('json', '[{"a":"\u0001"}]'), jsonError('json', 'control character (\\u0000-\\u001F) found while parsing a string at line 1 column 8'))
  t.equal(await messageOf('json', '[{"a":"\\x"}]'), jsonError('json', 'invalid escape at line 1 column 9'))
  t.equal(await messageOf('json', '[{"a":01}]'), jsonError('json', 'invalid number at line 1 column 8'))
  t.equal(await messageOf('json', '[{"a":1e400}]'), jsonError('json', 'number out of range at line 1 column 11'))
  t.equal(await messageOf('json', `[{"a":${'9'.repeat(400)}}]`), jsonError('json', 'number out of range at line 1 column 406'))
  t.same(await docsOf('json', '[{"a":1e300,"b":"1e999"}]'), [{ a: 1e300, b: '1e999' }])
  // Strings that look like big exponents ("Mode123") next to a real one: only the number fails.
  t.same(await docsOf('ndjson', '{"a":"Mode123"}\n{"b":"E999","c":1e300}\n'), [{ a: 'Mode123' }, { b: 'E999', c: 1e300 }])
  t.equal(await messageOf('ndjson', '{"a":"Mode123"}\n{"b":"x","c":-2E+0400}\n'), jsonError('ndjson', 'number out of range at line 2 column 21'))
  // Non-objects: the data error, unless a syntax error comes anywhere in the top-level value.
  t.equal(await messageOf('json', '1'), jsonError('json', 'data are neither an object nor a list of objects'))
  t.equal(await messageOf('json', 'null x'), jsonError('json', 'data are neither an object nor a list of objects'))
  t.equal(await messageOf('json', '[{"a":1}, 2, {"b":3}]'), jsonError('json', 'data are neither an object nor a list of objects'))
  t.equal(await messageOf('json', '[[{"a":1}]]'), jsonError('json', 'data are neither an object nor a list of objects'))
  t.equal(await messageOf('json', '[1, {"a":]'), jsonError('json', 'expected value at line 1 column 10'))
  t.equal(await messageOf('json', 'nul'), jsonError('json', 'EOF while parsing a value at line 1 column 3'))
  // ndjson
  t.equal(await messageOf('ndjson', '{"a":1}\n2\n'), jsonError('ndjson', 'data are neither an object nor a list of objects'))
  t.equal(await messageOf('ndjson', '{"a":1}\n[1,'), jsonError('ndjson', 'data are neither an object nor a list of objects'))
  t.equal(await messageOf('ndjson', '{"a":1}\ntrux'), jsonError('ndjson', 'expected ident at line 2 column 4'))
  t.equal(await messageOf('ndjson', '{"a":1}\n}'), jsonError('ndjson', 'expected value at line 2 column 1'))
  t.equal(await messageOf('ndjson', '{"a":1},{"b":2}'), jsonError('ndjson', 'expected value at line 1 column 8'))
  t.equal(await messageOf('ndjson', '{"a":1}\n\n{"b":2'), jsonError('ndjson', 'EOF while parsing an object at line 3 column 6'))
  t.equal(await messageOf('ndjson', '{"a":1}\n{"b":2]\n'), jsonError('ndjson', 'expected `,` or `}` at line 2 column 7'))
})

t.test('bad UTF-8', async (t) => {
  const bad = (s: string) => Buffer.from(s.replace('§', '\xff'), 'latin1')
  t.equal(await messageOf('json', bad('[{"a":"x§y"}]')), jsonError('json', 'invalid unicode code point at line 1 column 11'))
  t.equal(await messageOf('ndjson', bad('{"a":1}\n{"k§":2}')), jsonError('ndjson', 'invalid unicode code point at line 2 column 5'))
  t.equal(await messageOf('json', bad('[{"a":§}]')), jsonError('json', 'expected value at line 1 column 7'))
  // An error inside the bad string comes first.
  t.equal(await messageOf('json', bad('[{"a":"§\u0001"}]')), jsonError('json', 'control character (\\u0000-\\u001F) found while parsing a string at line 1 column 9'))
  t.same(await docsOf('json', Buffer.from('[{"a":"日本語 é 🎉"}]')), [{ a: '日本語 é 🎉' }])
  t.equal(
    await messageOf('csv', Buffer.from('id,name\n1,\xff\n', 'latin1')),
    csvError('CSV parse error: record 1 (line 2, field: 1, byte: 8): invalid utf-8: invalid UTF-8 in field 1 near byte index 0'),
  )
  t.equal(
    await messageOf('csv', Buffer.from('id,na\xffme\n1,x\n', 'latin1')),
    csvError('CSV parse error: record 0 (line 1, field: 1, byte: 0): invalid utf-8: invalid UTF-8 in field 1 near byte index 2'),
  )
})

t.test('deep nesting is an error, not a crash', async (t) => {
  const deep = 10000
  t.equal(await messageOf('json', '['.repeat(deep) + ']'.repeat(deep)), jsonError('json', 'recursion limit exceeded at line 1 column 128'))
  t.equal(
    await messageOf('json', `[{"a":${'['.repeat(deep)}${']'.repeat(deep)}}]`),
    jsonError('json', 'recursion limit exceeded at line 1 column 132'),
  )
  t.equal(await messageOf('ndjson', `{"a":${'{"b":'.repeat(deep)}1${'}'.repeat(deep)}}`), jsonError('ndjson', 'recursion limit exceeded at line 1 column 636'))
  t.equal(await messageOf('ndjson', '{"a":' + '['.repeat(200)), jsonError('ndjson', 'recursion limit exceeded at line 1 column 132'))
  // An earlier syntax error wins.
  t.equal(await messageOf('ndjson', '{"a":x' + '['.repeat(200)), jsonError('ndjson', 'expected value at line 1 column 6'))
  // 127 levels (126 inside the array) are fine.
  const ok = `[${'{"a":'.repeat(126)}1${'}'.repeat(126)}]`
  t.equal((await docsOf('json', ok))!.length, 1)
  t.equal(await messageOf('json', `[${'{"a":'.repeat(127)}1${'}'.repeat(127)}]`), jsonError('json', 'recursion limit exceeded at line 1 column 632'))
})

t.test('csv: header annotations, quoting, delimiters, line endings', async (t) => {
  t.same(await docsOf('csv', 'id:number,name:string,ok:boolean,x:weird,plain\n1,a,true,b,c\n'), [{ id: 1, name: 'a', ok: true, 'x:weird': 'b', plain: 'c' }])
  t.same(await docsOf('csv', 'id:number,name,ok:boolean\r\n1," a ""q"", b ",false\r\n2,,\r\n\r\n3,"multi\nline\r\n",  true \r\n'), [
    { id: 1, name: ' a "q", b ', ok: false },
    { id: 2, name: null, ok: null },
    { id: 3, name: 'multi\nline\r\n', ok: true },
  ])
  // Rust's number parsing: i64, else f64; infinities and NaN are null; blank is null.
  t.same(await docsOf('csv', 'n:number\n 42 \n-7\n+3\n1.5\n.5\n5.\n1e3\n-2.5E-2\ninf\nNaN\n\n" "\n"1e999"\n'), [
    { n: 42 }, { n: -7 }, { n: 3 }, { n: 1.5 }, { n: 0.5 }, { n: 5 }, { n: 1000 }, { n: -0.025 }, { n: null }, { n: null }, { n: null }, { n: null },
  ])
  t.same(await docsOf('csv', 'a;b:number\nx;1\n"y;z";2\n', { delimiter: ';' }), [{ a: 'x', b: 1 }, { a: 'y;z', b: 2 }])
  t.same(await docsOf('csv', 'a\tb\nx\t\n', { delimiter: '\t' }), [{ a: 'x', b: null }])
  // Lenient quoting as the csv crate reads it, a BOM, a last record without a terminator, \r alone.
  t.same(await docsOf('csv', '\ufeffa,b\r"x"y,z"w\rlast,"unclosed'), [{ a: 'xy', b: 'z"w' }, { a: 'last', b: 'unclosed' }])
  // Duplicate columns: the last value wins (one key).
  t.same(await docsOf('csv', 'a,a\n1,2\n'), [{ a: '2' }])
  // Only a header, or blank: no documents.
  t.same((await check('csv', 'a,b\n')).r, { ok: true, documents: 0, chunks: [], csvHeader: { names: ['a', 'b'], types: ['string', 'string'] } })
  t.same((await check('csv', '\n\n')).r, { ok: true, documents: 0, chunks: [], csvHeader: { names: [], types: [] } })
})

t.test('csv errors as Meilisearch words them', async (t) => {
  // From meilisearch's tests/documents/add_documents.rs snapshots.
  t.equal(
    await messageOf('csv', '#id:number,a:boolean,b:number\n0,doggo,1'),
    csvError('Error parsing boolean "doggo" at line 1: provided string was not `true` or `false`'),
  )
  t.equal(await messageOf('csv', '#id:number,a:boolean,b:number\n0,true,doggo'), csvError('Error parsing number "doggo" at line 1: invalid float literal'))
  t.equal(
    await messageOf('csv', 'id, content\n1234, hello, world\n12, hello world'),
    csvError('CSV error: record 1 (line: 2, byte: 12): found record with 3 fields, but the previous record has 2 fields'),
  )
  // Lines count data records; positions are the reader's after the previous record.
  t.equal(await messageOf('csv', 'n:number\n1\n2\n\n" x\ty "\n'), csvError('Error parsing number " x\\ty " at line 3: invalid float literal'))
  t.equal(await messageOf('csv', 'b:boolean\nTrue\n'), csvError('Error parsing boolean "True" at line 1: provided string was not `true` or `false`'))
  t.equal(
    await messageOf('csv', 'a,b\n1,2\n\n3\n'),
    csvError('CSV error: record 2 (line: 3, byte: 8): found record with 1 fields, but the previous record has 2 fields'),
  )
})

t.test('chunks hold whole documents and cover them all', async (t) => {
  const docs = Array.from({ length: 300 }, (_, i) => ({ id: i, text: `doc "${i}" ${'x'.repeat(i % 37)}`, nested: { list: [i, { deep: `é${i}` }] } }))
  const bodies: [PayloadFormat, string][] = [
    ['json', JSON.stringify(docs, null, 2)],
    ['ndjson', docs.map((d) => JSON.stringify(d)).join('\n\n')],
    ['json', JSON.stringify(docs)],
  ]
  for (const [format, body] of bodies) {
    for (const [chunkSize, blockSize] of [[1, 7], [500, 64], [4096, 1000], [1 << 22, 1 << 20]]) {
      const { r, docs: got } = await check(format, body, { chunkSize, blockSize })
      if (!r.ok) throw new Error(r.message)
      t.equal(r.documents, docs.length)
      t.same(got, docs, `${format} chunk ${chunkSize} block ${blockSize}`)
      if (chunkSize === 500) t.ok(r.chunks.length > 10)
      for (let k = 1; k < r.chunks.length; k++) t.ok(r.chunks[k]![0] >= r.chunks[k - 1]![1])
    }
  }
  const csv = 'id:number,text,flag:boolean\n' + docs.map((d) => `${d.id},"${d.text.replaceAll('"', '""')}\nsecond line",${d.id % 2 === 0}`).join('\r\n')
  const expected = docs.map((d) => ({ id: d.id, text: `${d.text}\nsecond line`, flag: d.id % 2 === 0 }))
  for (const [chunkSize, blockSize] of [[1, 5], [300, 64], [1 << 22, 1 << 20]]) {
    const { r, docs: got } = await check('csv', csv, { chunkSize, blockSize })
    if (!r.ok) throw new Error(r.message)
    t.equal(r.documents, docs.length)
    t.same(got, expected, `csv chunk ${chunkSize} block ${blockSize}`)
  }
  // Errors are positioned over the whole file whatever the block size.
  const bad = docs.map((d) => JSON.stringify(d)).join('\n') + '\n{"id": oops}\n'
  for (const blockSize of [3, 100, 1 << 20]) {
    t.equal(await messageOf('ndjson', bad, { blockSize }), jsonError('ndjson', 'expected value at line 301 column 8'))
  }
})

// A small deterministic PRNG, so a failure can be replayed.
function rng(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0
    let x = Math.imul(seed ^ (seed >>> 15), 1 | seed)
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296
  }
}

t.test('random and mutated payloads either parse or fail cleanly', async (t) => {
  const rand = rng(1234)
  const pick = <T>(xs: T[]): T => xs[Math.floor(rand() * xs.length)]!
  const value = (depth: number): unknown => {
    const k = Math.floor(rand() * (depth > 3 ? 5 : 7))
    if (k === 0) return Math.floor(rand() * 1e6) / (rand() < 0.5 ? 1 : 100)
    if (k === 1) return pick(['', 'a', 'é"\\\n', '日本', 'x'.repeat(50), '\u0000\u001f'])
    if (k === 2) return pick([true, false, null])
    if (k === 3 || k === 4) return pick(['s', 1, null])
    if (k === 5) return Array.from({ length: Math.floor(rand() * 4) }, () => value(depth + 1))
    return Object.fromEntries(Array.from({ length: Math.floor(rand() * 4) }, (_, i) => [`k${i}`, value(depth + 1)]))
  }
  const alphabet = Buffer.from('{}[]",:\\ \n\r\tabc01-.e\xff\xc3')
  const mutate = (b: Buffer): Buffer => {
    const out = Buffer.from(b)
    const n = 1 + Math.floor(rand() * 3)
    let cur: Buffer = out
    for (let k = 0; k < n && cur.length > 0; k++) {
      const at = Math.floor(rand() * cur.length)
      const op = Math.floor(rand() * 4)
      if (op === 0) cur[at] = alphabet[Math.floor(rand() * alphabet.length)]!
      else if (op === 1) cur = Buffer.concat([cur.subarray(0, at), cur.subarray(at + 1)])
      else if (op === 2) cur = Buffer.concat([cur.subarray(0, at), alphabet.subarray(Math.floor(rand() * alphabet.length)).subarray(0, 1), cur.subarray(at)])
      else cur = cur.subarray(0, at)
    }
    return cur
  }
  let parsed = 0
  let failed = 0
  for (let round = 0; round < 400; round++) {
    const docs = Array.from({ length: Math.floor(rand() * 6) }, () => {
      const v = value(0)
      return typeof v === 'object' && v !== null && !Array.isArray(v) ? v : { v }
    })
    const format = pick<PayloadFormat>(['json', 'ndjson', 'csv'])
    let body: Buffer
    if (format === 'json') body = Buffer.from(rand() < 0.2 && docs.length ? JSON.stringify(docs[0]) : JSON.stringify(docs, null, rand() < 0.5 ? 1 : 0))
    else if (format === 'ndjson') body = Buffer.from(docs.map((d) => JSON.stringify(d)).join(pick(['\n', '\n\n', ' ', '\r\n'])))
    else body = Buffer.from('a,b:number,c:boolean\n' + docs.map((_, i) => `"x${i}""y",${i},${i % 2 === 0}`).join('\n'))
    const intact = body.length > 0 && rand() < 0.3
    const payload = intact ? body : mutate(body)
    const options = { chunkSize: 1 + Math.floor(rand() * 64), blockSize: 1 + Math.floor(rand() * 64) }
    let result: { r: PayloadValidation; docs: unknown[] | undefined; path: string }
    try {
      result = await check(format, payload, options)
    } catch (err) {
      t.fail(`threw on ${format} ${JSON.stringify(payload.toString('latin1'))}: ${(err as Error).stack}`)
      continue
    }
    const { r, docs: got } = result
    // The verdict and the message do not depend on the block and chunk sizes.
    const whole = await validatePayloadFile({ path: result.path, format, csvDelimiter: ',' })
    t.equal(whole.ok ? 'ok' : whole.message, r.ok ? 'ok' : r.message)
    if (r.ok) {
      parsed++
      t.equal(got!.length, r.documents)
      for (const d of got!) t.ok(typeof d === 'object' && d !== null && !Array.isArray(d))
      if (intact && format !== 'csv') t.same(got, format === 'json' && !body.toString().startsWith('[') ? [docs[0]] : docs)
      if (format === 'json' && payload.length && !r.documents === false) {
        // What we accept, JSON.parse accepts (up to ignored bytes after the top-level array).
        const text = payload.toString('utf8')
        const end = text.trimStart().startsWith('[') ? findArrayEnd(text) : text.length
        t.doesNotThrow(() => JSON.parse(text.slice(0, end)))
      }
    } else {
      failed++
      t.ok(['malformed_payload', 'missing_payload'].includes(r.code))
      t.match(r.message, /^(The `(json|ndjson|csv)` payload provided is malformed[.:] `.*`\.|A (json|ndjson|csv) payload is missing\.)$/s)
    }
  }
  t.ok(parsed > 20 && failed > 20, `${parsed} parsed, ${failed} failed`)
})

function findArrayEnd(text: string): number {
  let depth = 0
  let inStr = false
  for (let i = 0; i < text.length; i++) {
    const c = text[i]
    if (inStr) {
      if (c === '\\') i++
      else if (c === '"') inStr = false
    } else if (c === '"') inStr = true
    else if (c === '[' || c === '{') depth++
    else if ((c === ']' || c === '}') && --depth === 0) return i + 1
  }
  return text.length
}

t.test('validation of a large ndjson file uses bounded memory', async (t) => {
  const path = join(dir, 'large.ndjson')
  const fd = openSync(path, 'w')
  const line = JSON.stringify({ id: 0, title: 'A title with some words', body: 'Lorem ipsum dolor sit amet, '.repeat(8), n: 1.5, tags: ['a', 'b'] })
  const block = Buffer.from(Array.from({ length: 4096 }, (_, i) => line.replace('"id":0', `"id":${i}`)).join('\n') + '\n')
  const target = 200 << 20
  let written = 0
  while (written < target) written += writeSync(fd, block)
  closeSync(fd)
  const size = statSync(path).size
  const gc = (globalThis as { gc?: () => void }).gc
  gc?.()
  const base = process.memoryUsage().rss
  let peak = base
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss)
  }, 5)
  const r = await validatePayloadFile({ path, format: 'ndjson', csvDelimiter: ',' })
  clearInterval(timer)
  peak = Math.max(peak, process.memoryUsage().rss)
  if (!r.ok) throw new Error(r.message)
  t.equal(r.documents, (written / block.length) * 4096)
  t.ok(r.chunks.length >= 45, `${r.chunks.length} chunks`)
  const growth = peak - base
  t.ok(growth < 96 * 2 ** 20, `rss grew ${(growth / 2 ** 20).toFixed(1)} MiB while validating ${(size / 2 ** 20).toFixed(0)} MiB`)
  rmSync(path)
})

/**
 * The bench's one reader of delimited text (CSV, TSV) for corpus files given with `--dataset`: not the engine's
 * CSV payload parser (engine/payload/csv.ts), which follows Meilisearch's rules (untyped columns stay strings,
 * quotes in TSV) where a corpus reader wants numbers found by itself and TSV taken literally.
 */

type Doc = Record<string, unknown>

const NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/

/** Records of a delimited text: RFC 4180 quoting when `quoted` (CSV), none (TSV: fields never hold tabs or newlines). */
export function parseDelimited(text: string, delimiter: string, quoted: boolean): string[][] {
  const rows: string[][] = []
  if (!quoted) {
    for (const line of text.split('\n')) {
      const l = line.endsWith('\r') ? line.slice(0, -1) : line
      if (l.length > 0) rows.push(l.split(delimiter))
    }
    return rows
  }
  let row: string[] = []
  let field = ''
  let i = 0
  let inQuotes = false
  let any = false
  while (i < text.length) {
    const c = text[i]!
    if (inQuotes) {
      if (c === '"') {
        if (text[i + 1] === '"') { field += '"'; i += 2; continue }
        inQuotes = false; i++; continue
      }
      field += c; i++; continue
    }
    if (c === '"') { inQuotes = true; any = true; i++; continue }
    if (c === delimiter) { row.push(field); field = ''; any = true; i++; continue }
    if (c === '\r' || c === '\n') {
      if (any || field.length > 0) { row.push(field); rows.push(row) }
      row = []; field = ''; any = false
      i += c === '\r' && text[i + 1] === '\n' ? 2 : 1
      continue
    }
    field += c; any = true; i++
  }
  if (any || field.length > 0) { row.push(field); rows.push(row) }
  return rows
}

/** Documents of a CSV/TSV: header cells may be typed (`name:number`); other columns are numbers when all values are. */
export function recordsToDocuments(rows: string[][]): Doc[] {
  const header = rows[0]
  if (!header) return []
  const columns = header.map((cell) => {
    const m = /^(.*):(string|number|boolean)$/.exec(cell)
    return m ? { name: m[1]!, type: m[2]! as 'string' | 'number' | 'boolean', typed: true } : { name: cell, type: 'string' as 'string' | 'number' | 'boolean', typed: false }
  })
  for (const [c, col] of columns.entries()) {
    if (col.typed) continue
    let numbers = 0
    let numeric = true
    for (let r = 1; r < rows.length && numeric; r++) {
      const v = rows[r]![c] ?? ''
      if (v === '') continue
      if (NUMBER.test(v)) numbers++
      else numeric = false
    }
    if (numeric && numbers > 0) col.type = 'number'
  }
  const docs: Doc[] = []
  for (let r = 1; r < rows.length; r++) {
    const row = rows[r]!
    const doc: Doc = {}
    columns.forEach((col, c) => {
      const v = row[c] ?? ''
      if (v === '') doc[col.name] = null
      else if (col.type === 'number') doc[col.name] = Number(v)
      else if (col.type === 'boolean') doc[col.name] = v === 'true'
      else doc[col.name] = v
    })
    docs.push(doc)
  }
  return docs
}

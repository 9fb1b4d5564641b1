import t from 'tap'
import { keys, RowRunBuilder, type WriteOp } from '../../../engine/storage/index.js'
import { encodeWrites } from '../../../engine/storage/wire.js'

const alloc = (size: number) => new Uint8Array(size)

t.test('a run encodes as the same writes one by one would, in order, deletes included', async (t) => {
  const arena = Uint8Array.from({ length: 64 }, (_, i) => i)
  const over = new RowRunBuilder('positions', 7, arena)
  over.range(3, 0, 8)
  over.delete(5)
  over.range(0xfffffffe, 40, 64)
  over.range(9, 8, 8)
  const own = new RowRunBuilder('postings', 0x01020304)
  const values: Buffer[] = []
  for (let w = 0; w < 600; w++) {
    const value = Buffer.alloc(w % 37, w & 0xff)
    values.push(value)
    if (w % 5 === 4) own.delete(w)
    else own.copy(w, value)
  }
  const single: WriteOp[] = [
    { column: 'positions', key: keys.indexKey(7, keys.u32(3)), value: arena.subarray(0, 8) },
    { column: 'positions', key: keys.indexKey(7, keys.u32(5)) },
    { column: 'positions', key: keys.indexKey(7, keys.u32(0xfffffffe)), value: arena.subarray(40, 64) },
    { column: 'positions', key: keys.indexKey(7, keys.u32(9)), value: arena.subarray(8, 8) },
  ]
  for (let w = 0; w < 600; w++) single.push({ column: 'postings', key: keys.indexKey(0x01020304, keys.u32(w)), ...(w % 5 === 4 ? {} : { value: values[w] }) })
  const meta: WriteOp = { column: 'meta', key: Buffer.from('m'), value: Buffer.from('v') }
  const runs = encodeWrites([meta, over.finish()!, own.finish()!, meta], alloc)
  const one = encodeWrites([meta, ...single, meta], alloc)
  t.equal(runs.byteLength, one.byteLength)
  t.ok(Buffer.from(runs).equals(Buffer.from(one)), 'byte for byte')
})

t.test('a run without rows is none; a builder refuses the other kind of row', async (t) => {
  t.equal(new RowRunBuilder('postings', 1).finish(), null)
  t.throws(() => new RowRunBuilder('postings', 1).range(1, 0, 0))
  t.throws(() => new RowRunBuilder('postings', 1, new Uint8Array(4)).copy(1, new Uint8Array(1)))
})

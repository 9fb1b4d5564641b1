import { Packr } from 'msgpackr'

/** The value encoding of records stored by the engine (tasks, batches, index metadata). */
const packr = new Packr({ moreTypes: true, useRecords: false })

export function encode(value: unknown): Buffer {
  return packr.pack(value)
}

export function decode<T>(buf: Uint8Array): T {
  return packr.unpack(buf) as T
}

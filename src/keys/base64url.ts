/**
 * Strict base64url without padding, as the Rust `base64` crate's `URL_SAFE_NO_PAD` engine decodes the parts of a
 * JWT for `jsonwebtoken` (Meilisearch's tenant tokens): a symbol outside the alphabet, padding, a lone trailing
 * symbol or a last symbol with stray low bits is an error, worded as the crate words it, so a malformed token is
 * refused with the message Meilisearch gives.
 */

export class Base64Error extends Error {}

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'
const VALUE = new Int8Array(128).fill(-1)
for (let i = 0; i < ALPHABET.length; i++) VALUE[ALPHABET.charCodeAt(i)] = i
const PAD = 61 // '='

function valueOf(byte: number): number {
  return byte < 128 ? VALUE[byte]! : -1
}

/** Decode `text` (ASCII expected: other characters are invalid symbols); throws `Base64Error`. */
export function decodeBase64Url(text: string): Buffer {
  const input = Buffer.from(text, 'utf8')
  const len = input.length
  // The crate decodes whole quads first and checks the last 1 to 4 bytes apart (padding, trailing bits).
  const rem = len % 4
  const suffixStart = len === 0 ? 0 : rem === 0 ? len - 4 : len - rem
  for (let i = 0; i < suffixStart; i++) {
    if (valueOf(input[i]!) < 0) throw new Base64Error(`Invalid symbol ${input[i]}, offset ${i}.`)
  }
  let padding = 0
  let firstPad = -1
  let symbols = 0
  let last = 0
  for (let k = 0; suffixStart + k < len; k++) {
    const b = input[suffixStart + k]!
    if (b === PAD) {
      if (k < 2) throw new Base64Error(`Invalid symbol ${b}, offset ${suffixStart + (padding > 0 ? firstPad : k)}.`)
      if (padding === 0) firstPad = k
      padding++
      continue
    }
    if (padding > 0) throw new Base64Error(`Invalid symbol ${PAD}, offset ${suffixStart + firstPad}.`)
    if (valueOf(b) < 0) throw new Base64Error(`Invalid symbol ${b}, offset ${suffixStart + k}.`)
    last = b
    symbols++
  }
  if (padding > 0) throw new Base64Error('Invalid padding')
  if (symbols === 1) throw new Base64Error(`Invalid input length: ${len}`)
  // A final group of 2 or 3 symbols carries 4 or 2 bits too many: they must be zero.
  const extraBits = symbols === 2 ? 0b1111 : symbols === 3 ? 0b11 : 0
  if ((valueOf(last) & extraBits) !== 0) throw new Base64Error(`Invalid last symbol ${last}, offset ${suffixStart + symbols - 1}.`)
  return Buffer.from(text, 'base64url')
}

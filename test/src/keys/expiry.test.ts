/** src/keys/expiry.ts: `parse_expiration_date` of `meilisearch-types/src/keys.rs`. */
import t from 'tap'
import { formatExpiry, parseExpiresAt } from '../../../src/keys/expiry.js'

const NOW = Date.UTC(2026, 0, 1) * 1000
const at = (text: string) => parseExpiresAt(text, NOW)

t.test('the four accepted formats', async (t) => {
  const midnight = Date.UTC(2050, 10, 13) * 1000
  t.same(at('2050-11-13T00:00:00Z'), { at: midnight, offsetMinutes: 0 })
  t.same(at('2050-11-13T00:00:00'), { at: midnight, offsetMinutes: 0 })
  t.same(at('2050-11-13 00:00:00'), { at: midnight, offsetMinutes: 0 })
  t.same(at('2050-11-13'), { at: midnight, offsetMinutes: 0 })
  t.same(at('2050-11-13T02:00:00+02:00'), { at: midnight, offsetMinutes: 120 }, 'an offset moves the instant and is kept')
  t.equal(at('2050-11-13T00:00:00.5Z')!.at, midnight + 500_000, 'fractions')
})

t.test('refused: malformed, impossible, past', async (t) => {
  for (const bad of ['doggo', '2050-13-01', '2050-02-30', '2050-11-13T24:00:00Z', '2050-11-13T00:00', '2050-11-13T00:00:00+25:00', '2010-11-13T00:00:00Z', '2026-01-01T00:00:00Z', '13/11/2050', '']) {
    t.equal(at(bad), null, bad)
  }
})

t.test('formatting keeps the offset it was given', async (t) => {
  t.equal(formatExpiry(at('2050-11-13T00:00:00Z')!), '2050-11-13T00:00:00Z')
  t.equal(formatExpiry(at('2050-11-13')!), '2050-11-13T00:00:00Z')
  t.equal(formatExpiry(at('2050-11-13T02:00:00.25+02:00')!), '2050-11-13T02:00:00.25+02:00')
  t.equal(formatExpiry(at('2050-11-13T00:00:00-05:30')!), '2050-11-13T00:00:00-05:30')
})

/**
 * Document route errors as Meilisearch's tests/documents/errors.rs snapshots them: the csv delimiter's value is
 * checked before it is matched against the Content-Type, and `/documents/delete-batch` reads its body with serde.
 */
import t from 'tap'
import { call, serverFor } from '../../helpers/server.js'

t.test('document route errors', async (t) => {
  const { url } = await serverFor(t)
  const add = (query: string, contentType: string) => call(`${url}/indexes/errs/documents${query}`, { method: 'POST', headers: { 'content-type': contentType }, body: '' })
  const cases: [string, number, string, string][] = [
    ['?csvDelimiter', 400, 'invalid_document_csv_delimiter', 'Invalid value in parameter `csvDelimiter`: expected a string of one character, but found an empty string'],
    ['?csvDelimiter=doggo', 400, 'invalid_document_csv_delimiter', 'Invalid value in parameter `csvDelimiter`: expected a string of one character, but found the following string of 5 characters: `doggo`'],
    [`?csvDelimiter=${encodeURIComponent('🍰')}`, 400, 'invalid_document_csv_delimiter', 'csv delimiter must be an ascii character. Found: `🍰`'],
    ['?csvDelimiter=%3B', 415, 'invalid_content_type', 'The Content-Type `application/json` does not support the use of a csv delimiter. The csv delimiter can only be used with the Content-Type `text/csv`.'],
  ]
  for (const [query, status, code, message] of cases) {
    const r = await add(query, 'application/json')
    t.equal(r.status, status, query)
    t.same(r.body, { message, code, type: 'invalid_request', link: `https://docs.meilisearch.com/errors#${code}` }, query)
  }
  // A byte body: fetch gives a string body a text/plain Content-Type of its own.
  const missing = await call(`${url}/indexes/errs/documents?csvDelimiter=%3B`, { method: 'POST', body: new Uint8Array(0) })
  t.equal(missing.body.code, 'missing_content_type', 'a missing Content-Type comes before the delimiter')

  const batch = await call(`${url}/indexes/errs/documents/delete-batch`, { method: 'POST', json: 'doggo' })
  t.equal(batch.status, 400)
  t.same(batch.body, {
    message: 'Json deserialize error: invalid type: string "doggo", expected a sequence at line 1 column 7',
    code: 'bad_request', type: 'invalid_request', link: 'https://docs.meilisearch.com/errors#bad_request',
  })
})

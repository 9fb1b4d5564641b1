/** Document write query strings (src/api/documents.ts): `customMetadata`, `skipCreation`, the csv delimiter message. */
import t from 'tap'
import { parseAddition, parseCustomMetadataQuery } from '../../../src/api/documents.js'
import { TesseraError } from '../../../engine/errors/index.js'

t.test('additions: customMetadata and skipCreation', async (t) => {
  t.same(parseAddition('customMetadata=abc%20d&skipCreation=true', 'application/json'), {
    format: 'json', csvDelimiter: ',', primaryKey: null, allowIndexCreation: false, skipCreation: true, customMetadata: 'abc d',
  })
  const plain = parseAddition('', 'application/x-ndjson')
  t.notOk('customMetadata' in plain, 'absent when not sent')
  t.equal(plain.skipCreation, false)
  t.equal(parseAddition('customMetadata=', 'text/csv').customMetadata, '', 'an empty string is a value')
})

t.test('the csv delimiter with another content type (Meilisearch\'s wording, the media type without parameters)', async (t) => {
  try {
    parseAddition('csvDelimiter=%3B', 'application/json; charset=utf-8')
    t.fail('accepted')
  } catch (err) {
    t.equal((err as TesseraError).code, 'invalid_content_type')
    t.equal((err as TesseraError).message, 'The Content-Type `application/json` does not support the use of a csv delimiter. The csv delimiter can only be used with the Content-Type `text/csv`.')
  }
})

t.test('deletions and clears take only customMetadata', async (t) => {
  t.equal(parseCustomMetadataQuery('customMetadata=x'), 'x')
  t.equal(parseCustomMetadataQuery(''), undefined)
  t.throws(() => parseCustomMetadataQuery('primaryKey=id'), { code: 'bad_request', message: 'Unknown parameter `primaryKey`: expected one of `customMetadata`' })
})

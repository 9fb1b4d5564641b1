// The request/response templates of `rest` embedders: Meilisearch's parse messages (its snapshots in
// crates/meilisearch/tests/vector/rest.rs, `bad_request` / `bad_response`), injection, and extraction messages.
import t from 'tap'
import { editDistance } from '../../../engine/errors/edit-distance.js'
import { EmbedError } from '../../../engine/embedders/errors.js'
import { ExtractionError, InjectableValue } from '../../../engine/embedders/json-template.js'
import { checkRestTemplates, parseRestTemplates, toEmbedding } from '../../../engine/embedders/rest-templates.js'

const NOTE = '\n  - Note: this template is using a document template, and so expects to contain the placeholder "{{text}}" rather than "{{fragment}}"'

function refusal(request: unknown, response: unknown): string {
  try {
    checkRestTemplates(request, response)
  } catch (err) {
    const e = err as { code: string; message: string }
    t.equal(e.code, 'vector_embedding_error')
    return e.message
  }
  return 'accepted'
}

t.test('request templates are refused with Meilisearch messages', async (t) => {
  const prefix = 'Error while generating embeddings: user error: '
  const cases: [unknown, string][] = [
    ['54', 'in `request`: "{{text}}" not found'],
    [{ input: [{ input: ['{{text}}', '{{..}}'] }, '{{..}}'] }, 'in `request.input.input`: "{{..}}" appears nested inside of a value that is itself repeated'],
    [{ input: { input: '{{text}}', repeat: '{{..}}' } }, 'in `request.input.repeat`: "{{..}}" appears outside of an array'],
    [{ input: ['{{..}}', '{{text}}'] }, 'in `request.input`: "{{..}}" expected at position #1, but found at position #0'],
    [{ input: ['{{text}}', '42', '{{..}}'] }, 'in `request.input`: "{{..}}" expected at position #1, but found at position #2'],
    [{ input: ['42', '{{..}}'] }, 'in `request.input[0]`: Expected "{{text}}" inside of the repeated value'],
    [{ input: ['{{text}}', '{{..}}'], data: ['42', '{{..}}'] }, 'in `request.data`: Found "{{..}}", but it was already present in `request.input`'],
    [{ input: '{{text}}', data: '{{text}}' }, 'in `request.data`: Found "{{text}}", but it was already present in `request.input`'],
    [{ repeated: [{ input: '{{text}}', data: [42, '{{text}}'] }, '{{..}}'] }, 'in `request.repeated.data[1]`: Found "{{text}}", but it was already present in `request.repeated.input`'],
    [{ input: ['{{text}}', '{{..}}'], data: '{{text}}' }, 'in `request.data`: Found "{{text}}", but it was already present in `request.input[0]` (repeated)'],
  ]
  for (const [request, message] of cases) t.equal(refusal(request, '{{embedding}}'), prefix + message + NOTE, JSON.stringify(request))
})

t.test('response templates are refused with Meilisearch messages', async (t) => {
  const prefix = 'Error while generating embeddings: user error: '
  const cases: [unknown, string][] = [
    ['42', 'in `response`: "{{embedding}}" not found'],
    [{ output: [{ output: ['{{embedding}}', '{{..}}'] }, '{{..}}'] }, 'in `response.output.output`: "{{..}}" appears nested inside of a value that is itself repeated'],
    [{ output: { output: '{{embedding}}', repeat: '{{..}}' } }, 'in `response.output.repeat`: "{{..}}" appears outside of an array'],
    [{ output: ['{{..}}', '{{embedding}}'] }, 'in `response.output`: "{{..}}" expected at position #1, but found at position #0'],
    [{ output: ['42', '{{..}}'] }, 'in `response.output[0]`: Expected "{{embedding}}" inside of the repeated value'],
    [{ output: [{ type: 'data', data: '{{embedding}}' }], data: '{{embedding}}' }, 'in `response.data`: Found "{{embedding}}", but it was already present in `response.output[0].data`'],
    [{ output: ['{{embedding}}', '{{..}}'], data: '{{embedding}}' }, 'in `response.data`: Found "{{embedding}}", but it was already present in `response.output[0]` (repeated)'],
  ]
  for (const [response, message] of cases) t.equal(refusal('{{text}}', response), prefix + message, JSON.stringify(response))
  t.equal(refusal('{{text}}', { data: ['{{embedding}}', '{{..}}'] }), `${prefix}in \`response\`: \`response\` has multiple embeddings, but \`request\` has only one text to embed`)
  t.equal(refusal({ data: ['{{text}}', '{{..}}'] }, { data: '{{embedding}}' }), `${prefix}in \`response\`: \`response\` has a single embedding, but \`request\` has multiple texts to embed`)
  t.equal(refusal({ input: ['{{text}}', '{{..}}'] }, { output: [{ embedding: '{{embedding}}' }, '{{..}}'] }), 'accepted')
})

t.test('injection fills one text, or repeats the item once per text', async (t) => {
  const single = InjectableValue.parse({ model: 'm', input: { content: '{{text}}' }, n: 1 }, '{{text}}', '{{..}}') as InjectableValue
  t.same(single.inject(['hello']), { model: 'm', input: { content: 'hello' }, n: 1 })
  const batch = InjectableValue.parse({ model: 'm', texts: [{ text: '{{text}}', kind: 'doc' }, '{{..}}'] }, '{{text}}', '{{..}}') as InjectableValue
  t.ok(batch.repeated)
  t.same(batch.inject(['a', 'b', 'c']), { model: 'm', texts: [{ text: 'a', kind: 'doc' }, { text: 'b', kind: 'doc' }, { text: 'c', kind: 'doc' }] })
  // The template itself is never altered.
  t.same(batch.inject(['z']), { model: 'm', texts: [{ text: 'z', kind: 'doc' }] })
})

function extractionMessage(response: unknown, body: unknown): string {
  const parsed = parseRestTemplates({ input: ['{{text}}', '{{..}}'] }, response)
  if (parsed instanceof EmbedError) throw parsed
  try {
    parsed.response.extract(body, toEmbedding, editDistance)
  } catch (err) {
    if (err instanceof ExtractionError) return err.describe('response', '{{embedding}}', 'an array of numbers')
    throw err
  }
  return 'extracted'
}

function singleExtractionMessage(response: unknown, body: unknown): string {
  const parsed = parseRestTemplates({ input: '{{text}}' }, response)
  if (parsed instanceof EmbedError) throw parsed
  try {
    parsed.response.extract(body, toEmbedding, editDistance)
  } catch (err) {
    if (err instanceof ExtractionError) return err.describe('response', '{{embedding}}', 'an array of numbers')
    throw err
  }
  return 'extracted'
}

t.test('extraction failures are worded as in Meilisearch', async (t) => {
  const server = { output: [{ text: 'a', embedding: [0, 0, 0] }] }
  t.equal(extractionMessage(['{{embedding}}', '{{..}}'], server),
    'in `response`, while extracting the array of "{{embedding}}"s, configuration expects `response` to be an array with at least 1 item(s) but server sent an object with 1 field(s)')
  t.equal(extractionMessage({ output: ['{{embedding}}', '{{..}}'] }, server),
    'in `response`, while extracting item #0 from the array of "{{embedding}}"s, expected `response` to be an array of numbers, but failed to parse server response:\n  - invalid type: map, expected a sequence')
  t.equal(singleExtractionMessage({ output: '{{embedding}}' }, server),
    'in `response.output`, while extracting a single "{{embedding}}", expected `output` to be an array of numbers, but failed to parse server response:\n  - invalid type: map, expected f32')
  t.equal(extractionMessage({ output: [{ embedding: { data: '{{embedding}}' } }, '{{..}}'] }, server),
    'in `response.embedding`, while extracting item #0 from the array of "{{embedding}}"s, configuration expects `embedding` to be an object with key `data` but server sent an array of size 3')
  t.equal(singleExtractionMessage({ output: [{ embeddings: { data: '{{embedding}}' } }] }, server),
    'in `response.output[0]`, while extracting a single "{{embedding}}", configuration expects key "embeddings", which is missing in response\n  - Hint: item #0 inside `output` has key `embedding`, did you mean `response.output[0].embedding` in embedder configuration?')
  t.equal(singleExtractionMessage({ data: '{{embedding}}' }, [1, 2]),
    'in `response`, while extracting a single "{{embedding}}", configuration expects `response` to be an object with key `data` but server sent an array of size 2')
  t.equal(singleExtractionMessage({ data: '{{embedding}}' }, { data: 'nope' }),
    'in `response.data`, while extracting a single "{{embedding}}", expected `data` to be an array of numbers, but failed to parse server response:\n  - invalid type: string "nope", expected a sequence')
  t.equal(singleExtractionMessage({ data: ['{{embedding}}'] }, { data: [] }),
    'in `response.data`, while extracting a single "{{embedding}}", configuration expects item #0, which is missing in response')
  t.equal(singleExtractionMessage({ data: '{{embedding}}' }, { data: [1, 2.5, -3] }), 'extracted')
})

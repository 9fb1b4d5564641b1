/**
 * Writes a tiny BERT-shaped model folder that transformers.js loads like a real sentence-embedding model:
 * `config.json`, `tokenizer.json` (WordPiece, lower-casing BERT normalizer, `[CLS] $A [SEP]`),
 * `tokenizer_config.json` and `onnx/model.onnx`, optionally `1_Pooling/config.json`.
 *
 * The graph is what `dependencies.md` says is enough, plus token types so every BERT input is consumed:
 *   last_hidden_state = tanh((E[input_ids] + T[token_type_ids]) · W) ⊙ attention_mask
 * with seeded weights, so a test can compute the expected vectors by hand from `TinyBert.weights`.
 * Semantic quality is not the point: it exercises the real loading, tokenizing and pooling code offline.
 */
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import onnxProto from 'onnx-proto'
import { seededRandom } from './random.js'

const { onnx } = onnxProto

export interface TinyBertOptions {
  /** Hidden size of the output vectors. Default 8. */
  hidden?: number
  /** Size of the embedding table (the input of the projection). Default 6. */
  inner?: number
  /** Words of the vocabulary after the five special tokens. Default: a small English list. */
  words?: string[]
  /** Write `1_Pooling/config.json` choosing this pooling (as sentence-transformers models do). */
  pooling?: 'cls' | 'mean'
  /** Seed of the weights. Default 7. */
  seed?: number
}

export interface TinyBert {
  /** The model folder (pass its parent as the models folder and its name as `model`). */
  dir: string
  vocab: Map<string, number>
  weights: { E: number[][]; T: number[][]; W: number[][] }
  hidden: number
}

const SPECIALS = ['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]']
const DEFAULT_WORDS = ['hello', 'world', 'a', 'brave', 'dog', 'cat', 'the', 'test', 'kefir', 'intel', 'is', 'good', '##s', '##ing', 'run', '.', ',', '!', 'sample', 'text']

/** The token ids transformers.js should produce for `text` (lower-cased words, `[UNK]` otherwise). */
export function tinyBertTokenIds(model: TinyBert, text: string): number[] {
  const ids = [model.vocab.get('[CLS]')!]
  for (const word of text.toLowerCase().match(/[\p{L}\p{N}]+|[^\s\p{L}\p{N}]/gu) ?? []) {
    let rest = word
    let first = true
    const pieces: number[] = []
    while (rest.length > 0) {
      let end = rest.length
      let id: number | undefined
      for (; end > 0; end--) {
        id = model.vocab.get((first ? '' : '##') + rest.slice(0, end))
        if (id !== undefined) break
      }
      if (id === undefined) { pieces.length = 0; pieces.push(model.vocab.get('[UNK]')!); break }
      pieces.push(id)
      rest = rest.slice(end)
      first = false
    }
    ids.push(...pieces)
  }
  ids.push(model.vocab.get('[SEP]')!)
  return ids
}

/** The hidden state of each token of `text`, computed from the weights (the graph, by hand). */
export function tinyBertHiddenStates(model: TinyBert, text: string): number[][] {
  const { E, T, W } = model.weights
  return tinyBertTokenIds(model, text).map((id) => {
    const x = E[id].map((v, k) => v + T[0][k])
    return W[0].map((_, j) => Math.tanh(x.reduce((sum, xk, k) => sum + xk * W[k][j], 0)))
  })
}

function matrix(rows: number, cols: number, random: () => number): number[][] {
  return Array.from({ length: rows }, () => Array.from({ length: cols }, () => Math.round((random() * 2 - 1) * 1000) / 1000))
}

function floatTensor(name: string, rows: number[][]) {
  return onnx.TensorProto.create({ name, dims: [rows.length, rows[0].length], dataType: onnx.TensorProto.DataType.FLOAT, floatData: rows.flat() })
}

function valueInfo(name: string, elemType: number, dims: (string | number)[]) {
  return onnx.ValueInfoProto.create({
    name,
    type: { tensorType: { elemType, shape: { dim: dims.map((d) => (typeof d === 'string' ? { dimParam: d } : { dimValue: d })) } } },
  })
}

function node(opType: string, input: string[], output: string[], attribute: object[] = []) {
  return onnx.NodeProto.create({ opType, input, output, name: output[0], attribute })
}

export function tinyBertGraph(weights: TinyBert['weights'], hidden: number): Uint8Array {
  const INT64 = onnx.TensorProto.DataType.INT64
  const FLOAT = onnx.TensorProto.DataType.FLOAT
  const graph = onnx.GraphProto.create({
    name: 'tiny-bert',
    input: [
      valueInfo('input_ids', INT64, ['batch', 'sequence']),
      valueInfo('attention_mask', INT64, ['batch', 'sequence']),
      valueInfo('token_type_ids', INT64, ['batch', 'sequence']),
    ],
    output: [valueInfo('last_hidden_state', FLOAT, ['batch', 'sequence', hidden])],
    initializer: [
      floatTensor('E', weights.E),
      floatTensor('T', weights.T),
      floatTensor('W', weights.W),
      onnx.TensorProto.create({ name: 'axes', dims: [1], dataType: INT64, int64Data: [2] }),
    ],
    node: [
      node('Gather', ['E', 'input_ids'], ['words']),
      node('Gather', ['T', 'token_type_ids'], ['types']),
      node('Add', ['words', 'types'], ['embedded']),
      node('MatMul', ['embedded', 'W'], ['projected']),
      node('Tanh', ['projected'], ['activated']),
      node('Cast', ['attention_mask'], ['mask_float'], [{ name: 'to', type: onnx.AttributeProto.AttributeType.INT, i: FLOAT }]),
      node('Unsqueeze', ['mask_float', 'axes'], ['mask']),
      node('Mul', ['activated', 'mask'], ['last_hidden_state']),
    ],
  })
  const model = onnx.ModelProto.create({ irVersion: 7, producerName: 'tessera-tests', opsetImport: [{ domain: '', version: 13 }], graph })
  return onnx.ModelProto.encode(model).finish()
}

function tokenizerJson(vocab: Map<string, number>): object {
  return {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: SPECIALS.map((content) => ({ id: vocab.get(content), content, single_word: false, lstrip: false, rstrip: false, normalized: false, special: true })),
    normalizer: { type: 'BertNormalizer', clean_text: true, handle_chinese_chars: true, strip_accents: null, lowercase: true },
    pre_tokenizer: { type: 'BertPreTokenizer' },
    post_processor: {
      type: 'TemplateProcessing',
      single: [{ SpecialToken: { id: '[CLS]', type_id: 0 } }, { Sequence: { id: 'A', type_id: 0 } }, { SpecialToken: { id: '[SEP]', type_id: 0 } }],
      pair: [{ SpecialToken: { id: '[CLS]', type_id: 0 } }, { Sequence: { id: 'A', type_id: 0 } }, { SpecialToken: { id: '[SEP]', type_id: 0 } }, { Sequence: { id: 'B', type_id: 1 } }, { SpecialToken: { id: '[SEP]', type_id: 1 } }],
      special_tokens: {
        '[CLS]': { id: '[CLS]', ids: [vocab.get('[CLS]')], tokens: ['[CLS]'] },
        '[SEP]': { id: '[SEP]', ids: [vocab.get('[SEP]')], tokens: ['[SEP]'] },
      },
    },
    decoder: { type: 'WordPiece', prefix: '##', cleanup: true },
    model: { type: 'WordPiece', unk_token: '[UNK]', continuing_subword_prefix: '##', max_input_chars_per_word: 100, vocab: Object.fromEntries(vocab) },
  }
}

/** Write the model folder `<parent>/<name>` and return its weights for hand computations. */
export async function writeTinyBertModel(parent: string, name: string, options: TinyBertOptions = {}): Promise<TinyBert> {
  const hidden = options.hidden ?? 8
  const inner = options.inner ?? 6
  const words = options.words ?? DEFAULT_WORDS
  const vocab = new Map([...SPECIALS, ...words].map((token, id) => [token, id]))
  const random = seededRandom(options.seed ?? 7).float
  const weights = { E: matrix(vocab.size, inner, random), T: matrix(2, inner, random), W: matrix(inner, hidden, random) }
  const dir = join(parent, name)
  await mkdir(join(dir, 'onnx'), { recursive: true })
  await writeFile(join(dir, 'onnx', 'model.onnx'), tinyBertGraph(weights, hidden))
  await writeFile(join(dir, 'tokenizer.json'), JSON.stringify(tokenizerJson(vocab)))
  await writeFile(join(dir, 'tokenizer_config.json'), JSON.stringify({
    tokenizer_class: 'BertTokenizer', do_lower_case: true, model_max_length: 512,
    cls_token: '[CLS]', sep_token: '[SEP]', pad_token: '[PAD]', unk_token: '[UNK]', mask_token: '[MASK]',
  }))
  await writeFile(join(dir, 'config.json'), JSON.stringify({
    architectures: ['BertModel'], model_type: 'bert', hidden_size: hidden, vocab_size: vocab.size,
    max_position_embeddings: 512, num_attention_heads: 1, num_hidden_layers: 1, type_vocab_size: 2, pad_token_id: 0,
  }))
  if (options.pooling) {
    await mkdir(join(dir, '1_Pooling'), { recursive: true })
    await writeFile(join(dir, '1_Pooling', 'config.json'), JSON.stringify({
      word_embedding_dimension: hidden, pooling_mode_cls_token: options.pooling === 'cls', pooling_mode_mean_tokens: options.pooling === 'mean',
      pooling_mode_max_tokens: false, pooling_mode_mean_sqrt_len_tokens: false,
    }))
  }
  return { dir, vocab, weights, hidden }
}

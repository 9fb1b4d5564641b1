/**
 * `localHub`: a sentence-embedding model run in the current thread (Meilisearch's `huggingFace` source,
 * `embedder/hf.rs`) with `@huggingface/transformers` (transformers.js, the maintained successor of
 * `@xenova/transformers`: same API, ONNX Runtime for Node, and it installs here without overriding `sharp`).
 *
 * The model is read from `<modelsPath>/<model>/` (`config.json`, `tokenizer.json`, `onnx/model.onnx` or
 * `onnx/model_quantized.onnx`, optionally the sentence-transformers `1_Pooling/config.json`). Nothing is
 * downloaded unless the runtime allows remote models, in which case transformers.js fetches the missing files of
 * `model` at `revision` into the same folder. ONNX Runtime runs on one thread: the worker pool is the parallelism.
 *
 * Vectors are the model's token embeddings pooled per text, not normalized (as Meilisearch): `useModel` takes the
 * pooling of `1_Pooling/config.json` (CLS, mean, last token, mean/√len or max; mean when absent), `forceMean` and
 * `forceCls` override it. Texts are batched with padding; pooling only reads the real tokens, so a text gets the
 * same vector alone or in a batch. Texts longer than the model's `max_position_embeddings` (512 when absent) are cut.
 */
import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { AutoModel, AutoTokenizer, env, type PreTrainedModel, type PreTrainedTokenizer, type Tensor } from '@huggingface/transformers'
import type { Distribution, EmbedderSettings, Pooling as PoolingSetting } from './config.js'
import type { DocumentTemplate } from './document-template.js'
import { EmbedError, couldNotDetermineDimension, documentsFailed, generationFailed } from './errors.js'
import { QueryCache } from './query-cache.js'
import { RequestStats } from './request-stats.js'
import type { EmbedOptions, Embedder, ResolvedRuntime } from './types.js'

export const LOCAL_HUB_DEFAULT_MODEL = 'BAAI/bge-base-en-v1.5'

export type PoolingMethod = 'mean' | 'cls' | 'max' | 'meanSqrtLen' | 'lastToken'

/** Texts per model run: enough to amortize a run, few enough that padding to the longest text stays cheap. */
const TEXTS_PER_RUN = 8

/** The sentence-transformers pooling file, as Meilisearch reads it (first flag set wins, in this order). */
export function poolingFromConfig(config: Record<string, unknown> | null): PoolingMethod {
  if (config?.pooling_mode_cls_token === true) return 'cls'
  if (config?.pooling_mode_mean_tokens === true) return 'mean'
  if (config?.pooling_mode_lasttoken === true) return 'lastToken'
  if (config?.pooling_mode_mean_sqrt_len_tokens === true) return 'meanSqrtLen'
  if (config?.pooling_mode_max_tokens === true) return 'max'
  return 'mean'
}

/** Pool the vectors of one text's real tokens (`hidden[offset + t * width + j]` for `t` in `tokens`) into one. */
export function pool(method: PoolingMethod, hidden: Float32Array, offset: number, tokens: readonly number[], width: number): Float32Array {
  const out = new Float32Array(width)
  if (tokens.length === 0) return out
  if (method === 'cls' || method === 'lastToken') {
    const t = method === 'cls' ? tokens[0]! : tokens[tokens.length - 1]!
    out.set(hidden.subarray(offset + t * width, offset + (t + 1) * width))
    return out
  }
  if (method === 'max') out.fill(-Infinity)
  for (const t of tokens) {
    const base = offset + t * width
    for (let j = 0; j < width; j++) out[j] = method === 'max' ? Math.max(out[j]!, hidden[base + j]!) : out[j]! + hidden[base + j]!
  }
  if (method === 'max') return out
  const divisor = method === 'mean' ? tokens.length : Math.sqrt(tokens.length)
  for (let j = 0; j < width; j++) out[j]! /= divisor
  return out
}

// transformers.js reads its options from one global `env`: loads that set it run one at a time.
let loading: Promise<unknown> = Promise.resolve()
function exclusive<T>(fn: () => Promise<T>): Promise<T> {
  const run = loading.then(fn, fn)
  loading = run.catch(() => undefined)
  return run
}

async function readJson(path: string): Promise<Record<string, unknown> | null> {
  try {
    return JSON.parse(await readFile(path, 'utf8')) as Record<string, unknown>
  } catch {
    return null
  }
}

export class LocalHubEmbedder implements Embedder {
  readonly kind = 'localHub' as const
  readonly requests = new RequestStats()
  readonly chunkHint = TEXTS_PER_RUN * 4
  private _dimensions = 0
  private readonly cache: QueryCache

  private constructor(
    readonly name: string,
    readonly documentTemplate: DocumentTemplate | null,
    readonly distribution: Distribution | null,
    readonly pooling: PoolingMethod,
    private readonly tokenizer: PreTrainedTokenizer,
    private readonly model: PreTrainedModel,
    private readonly maxLength: number,
    runtime: ResolvedRuntime,
  ) {
    this.cache = new QueryCache(runtime.queryCacheEntries)
  }

  static async create(name: string, settings: EmbedderSettings, template: DocumentTemplate | null, runtime: ResolvedRuntime): Promise<LocalHubEmbedder> {
    const model = settings.model ?? LOCAL_HUB_DEFAULT_MODEL
    const root = resolve(runtime.modelsPath)
    const dir = join(root, model)
    if (!runtime.allowRemoteModels && !existsSync(join(dir, 'config.json'))) {
      throw generationFailed(new EmbedError('user', `model \`${model}\` not found: no \`config.json\` in \`${dir}\`\n  - Note: models are not downloaded; put the model's \`config.json\`, \`tokenizer.json\` and \`onnx/model.onnx\` in \`${dir}\` (the folder \`--models-dir\` names)`))
    }
    const dtype = existsSync(join(dir, 'onnx', 'model.onnx')) || !existsSync(join(dir, 'onnx', 'model_quantized.onnx')) ? 'fp32' : 'q8'
    let loaded: [PreTrainedTokenizer, PreTrainedModel]
    try {
      loaded = await exclusive(async () => {
        env.allowLocalModels = true
        env.allowRemoteModels = runtime.allowRemoteModels
        env.localModelPath = root
        env.cacheDir = root
        const options = { revision: settings.revision, local_files_only: !runtime.allowRemoteModels }
        const tokenizer = await AutoTokenizer.from_pretrained(model, options)
        const session = await AutoModel.from_pretrained(model, { ...options, dtype, session_options: { intraOpNumThreads: 1, interOpNumThreads: 1 } })
        return [tokenizer, session] as [PreTrainedTokenizer, PreTrainedModel]
      })
    } catch (err) {
      throw generationFailed(new EmbedError('runtime', `loading model failed:\n  - ${(err as Error).message}`))
    }
    const config = await readJson(join(dir, 'config.json'))
    const poolingFile = await readJson(join(dir, '1_Pooling', 'config.json'))
    const pooling = choosePooling(settings.pooling ?? 'useModel', poolingFile)
    const maxLength = typeof config?.max_position_embeddings === 'number' ? config.max_position_embeddings : 512
    const distribution = settings.distribution ?? (model === LOCAL_HUB_DEFAULT_MODEL ? { mean: 0.85, sigma: 0.1 } : null)
    const embedder = new LocalHubEmbedder(name, template, distribution, pooling, loaded[0], loaded[1], maxLength, runtime)
    try {
      embedder._dimensions = (await embedder.embed(['test']))[0]!.length
    } catch (err) {
      await embedder.close()
      throw generationFailed(couldNotDetermineDimension(err instanceof EmbedError ? err : new EmbedError('runtime', String(err))))
    }
    return embedder
  }

  get dimensions(): number {
    return this._dimensions
  }

  async embedDocuments(texts: readonly string[], options: EmbedOptions = {}): Promise<Float32Array[]> {
    try {
      return await this.embed(texts, options.signal)
    } catch (err) {
      if (err instanceof EmbedError) throw documentsFailed(this.name, err)
      throw err
    }
  }

  async embedQuery(text: string, options: EmbedOptions = {}): Promise<Float32Array> {
    return this.cache.through(text, async () => {
      try {
        return (await this.embed([text], options.signal))[0]!
      } catch (err) {
        if (err instanceof EmbedError) throw generationFailed(err)
        throw err
      }
    })
  }

  private async embed(texts: readonly string[], signal?: AbortSignal): Promise<Float32Array[]> {
    const out: Float32Array[] = []
    for (let start = 0; start < texts.length; start += TEXTS_PER_RUN) {
      // A model run cannot be interrupted; a canceled task stops between runs.
      if (signal?.aborted) throw signal.reason
      out.push(...(await this.run(texts.slice(start, start + TEXTS_PER_RUN))))
    }
    return out
  }

  private async run(texts: string[]): Promise<Float32Array[]> {
    let inputs: Record<string, Tensor>
    try {
      inputs = this.tokenizer(texts, { padding: true, truncation: true, max_length: this.maxLength }) as unknown as Record<string, Tensor>
    } catch (err) {
      throw new EmbedError('runtime', `could not tokenize:\n  - ${(err as Error).message}`)
    }
    let hidden: Tensor
    try {
      const outputs = (await this.model(inputs)) as Record<string, Tensor | undefined>
      hidden = (outputs.last_hidden_state ?? outputs.token_embeddings ?? Object.values(outputs)[0])!
    } catch (err) {
      throw new EmbedError('runtime', `could not run model:\n  - ${(err as Error).message}`)
    }
    const [batch, length, width] = hidden.dims as [number, number, number]
    const data = hidden.data as Float32Array
    const mask = inputs.attention_mask!.data as BigInt64Array
    const vectors: Float32Array[] = []
    for (let b = 0; b < batch; b++) {
      const tokens: number[] = []
      for (let t = 0; t < length; t++) if (mask[b * length + t] !== 0n) tokens.push(t)
      vectors.push(pool(this.pooling, data, b * length * width, tokens, width))
    }
    return vectors
  }

  async close(): Promise<void> {
    await this.model.dispose()
  }
}

function choosePooling(setting: PoolingSetting, file: Record<string, unknown> | null): PoolingMethod {
  if (setting === 'forceMean') return 'mean'
  if (setting === 'forceCls') return 'cls'
  return poolingFromConfig(file)
}

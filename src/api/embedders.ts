/**
 * Embedder objects of a settings body, deserialized as Meilisearch's deserr does (its messages; the body's key order,
 * first error wins). What an embedder may contain per source is checked afterwards by the engine's field table
 * (`engine/settings/embedders.ts`), which the task also applies to the merged settings.
 */
import type { ErrorCode } from '../../engine/errors/index.js'
import { EMBEDDER_KEYS, SOURCE_VALUES, type EmbedderUpdate } from '../../engine/settings/embedders.js'
import type { Pooling } from '../../engine/settings/types.js'
import { TUNING_FIELDS } from '../../engine/embedders/config.js'
import { clone, isObject, setKey } from '../../engine/json/value.js'
import { at, expectObject, invalidType, invalidValue, missingField, unknownValue, type Path, expectUsize } from './deserr.js'

const CODE: ErrorCode = 'invalid_settings_embedders'

function str(value: unknown, path: Path): string {
  if (typeof value !== 'string') throw invalidType(CODE, path, 'a string', value)
  return value
}

function float(value: unknown, path: Path): number {
  if (typeof value !== 'number') throw invalidType(CODE, path, 'a number', value)
  return value
}

function parseDistribution(value: unknown, path: Path): { mean: number; sigma: number } {
  const obj = expectObject(value, path, ['mean', 'sigma'], CODE, CODE)
  for (const key of Object.keys(obj)) float(obj[key], at(path, key))
  if (obj.mean === undefined) throw missingField(CODE, path, 'mean')
  if (obj.sigma === undefined) throw missingField(CODE, path, 'sigma')
  const mean = obj.mean as number
  const sigma = obj.sigma as number
  if (mean < 0 || mean > 1) throw invalidValue(CODE, path, `the distribution mean must be in the range [0, 1], got ${mean}`)
  if (sigma <= 0 || sigma > 1) throw invalidValue(CODE, path, `the distribution sigma must be in the range ]0, 1], got ${sigma}`)
  return { mean, sigma }
}

/** Deserialize one embedder object (deserr order: the body's key order, first error wins). */
export function parseEmbedder(value: unknown, path: Path): EmbedderUpdate {
  // Tessera's tuning fields are taken out first, so the "Unknown field" message lists Meilisearch's fields alone.
  const tuning: EmbedderUpdate = {}
  if (isObject(value)) {
    const rest: Record<string, unknown> = {}
    for (const [key, v] of Object.entries(value)) {
      if (!(TUNING_FIELDS as readonly string[]).includes(key)) { setKey(rest, key, v); continue }
      const field = key as (typeof TUNING_FIELDS)[number]
      if (v !== null && (expectUsize(v, at(path, key), CODE) === 0)) throw invalidValue(CODE, at(path, key), `\`${key}\` cannot be zero`)
      tuning[field] = v as number | null
    }
    value = rest
  }
  const obj = expectObject(value, path, EMBEDDER_KEYS, CODE, CODE)
  const out: EmbedderUpdate = { ...tuning }
  for (const key of Object.keys(obj) as (typeof EMBEDDER_KEYS)[number][]) {
    const v = obj[key]
    const p = at(path, key)
    if (v === null) { (out as Record<string, unknown>)[key] = null; continue }
    switch (key) {
      case 'source': {
        const s = str(v, p)
        if (!(SOURCE_VALUES as readonly string[]).includes(s)) throw unknownValue(CODE, p, s, SOURCE_VALUES)
        out.source = s
        break
      }
      case 'model': case 'revision': case 'apiKey': case 'documentTemplate': case 'url':
        out[key] = str(v, p)
        break
      case 'pooling': {
        const s = str(v, p)
        const accepted = ['useModel', 'forceMean', 'forceCls']
        if (!accepted.includes(s)) throw unknownValue(CODE, p, s, accepted)
        out.pooling = s as Pooling
        break
      }
      case 'dimensions': case 'documentTemplateMaxBytes':
        out[key] = expectUsize(v, p, CODE)
        break
      case 'binaryQuantized':
        if (typeof v !== 'boolean') throw invalidType(CODE, p, 'a boolean', v)
        out.binaryQuantized = v
        break
      case 'request': case 'response':
        out[key] = clone(v)
        break
      case 'headers': {
        if (!isObject(v)) throw invalidType(CODE, p, 'an object', v)
        const headers: Record<string, string> = {}
        for (const [h, hv] of Object.entries(v)) setKey(headers, h, str(hv, at(p, h)))
        out.headers = headers
        break
      }
      case 'searchEmbedder': case 'indexingEmbedder':
        out[key] = parseEmbedder(v, p)
        break
      case 'distribution':
        out.distribution = parseDistribution(v, p)
        break
    }
  }
  return out
}

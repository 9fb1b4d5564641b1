/**
 * `PATCH /experimental-features` bodies: `{name: boolean}`; a null value leaves that switch as it is; an unknown
 * name is a `bad_request` (deserr's "Unknown field" message), a non-boolean value too ("Invalid value type at
 * `.name`"). deserr reports the first offending entry in the order the body lists them. The message offers the
 * current release's names; retired names are accepted silently (see engine/features).
 */
import { CURRENT_FEATURE_NAMES, FEATURE_NAMES, type FeatureName, type FeaturesPatch } from '../../engine/features/index.js'
import { at, expectObject, invalidType } from './deserr.js'

export function parseFeaturesPatch(body: unknown): FeaturesPatch {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) expectObject(body, '', CURRENT_FEATURE_NAMES)
  const patch: FeaturesPatch = {}
  for (const [name, value] of Object.entries(body as Record<string, unknown>)) {
    if (!(FEATURE_NAMES as readonly string[]).includes(name)) expectObject({ [name]: value }, '', CURRENT_FEATURE_NAMES)
    if (value === null) continue
    if (typeof value !== 'boolean') throw invalidType('bad_request', at('', name), 'a boolean', value)
    patch[name as FeatureName] = value
  }
  return patch
}

/**
 * `GET /experimental-features` and `PATCH /experimental-features`: synchronous (no task), `200` with the features
 * object. PATCH takes `{name: boolean}`; a null value leaves that switch as it is; an unknown name is a
 * `bad_request` (deserr's "Unknown field" message), a non-boolean value too ("Invalid value type at `.name`").
 */
import { FEATURE_NAMES, type FeatureName, type FeaturesPatch } from '../../engine/features/index.js'
import { json } from '../http/json.js'
import { at, expectObject, invalidType } from '../../engine/errors/deserr.js'
import type { AppRouter } from './context.js'

export function parseFeaturesPatch(body: unknown): FeaturesPatch {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) expectObject(body, '', FEATURE_NAMES)
  const patch: FeaturesPatch = {}
  // deserr reports the first offending entry in the order the body lists them (unknown name or bad value).
  for (const [name, value] of Object.entries(body as Record<string, unknown>)) {
    if (!(FEATURE_NAMES as readonly string[]).includes(name)) expectObject({ [name]: value }, '', FEATURE_NAMES)
    if (value === null) continue
    if (typeof value !== 'boolean') throw invalidType('bad_request', at('', name), 'a boolean', value)
    patch[name as FeatureName] = value
  }
  return patch
}

export function featureRoutes(router: AppRouter): void {
  router
    .on('GET', '/experimental-features', ({ engine }) => json(200, engine.features.view()))
    .on('PATCH', '/experimental-features', async ({ engine, body }) => {
      const patch = parseFeaturesPatch(await body())
      return json(200, await engine.features.patch(patch))
    })
}

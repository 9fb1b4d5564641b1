/** Cost components for rule tests: a zeroed vector with the named components set. */
import * as C from '../../../../engine/search/rules/components.js'

export type ComponentValues = Partial<Record<'skipped' | 'typo' | 'typoMax' | 'prox' | 'proxMax' | 'fid' | 'fidMax' | 'pos' | 'posMax' | 'exactType' | 'missing' | 'wordsMax', number>>

export function components(values: ComponentValues): Int32Array {
  const c = new Int32Array(C.COMPONENTS)
  const at: Record<keyof ComponentValues, number> = {
    skipped: C.C_SKIPPED, typo: C.C_TYPO, typoMax: C.C_TYPO_MAX, prox: C.C_PROX, proxMax: C.C_PROX_MAX, fid: C.C_FID,
    fidMax: C.C_FID_MAX, pos: C.C_POS, posMax: C.C_POS_MAX, exactType: C.C_EXACT_TYPE, missing: C.C_MISSING, wordsMax: C.C_WORDS_MAX,
  }
  for (const [k, v] of Object.entries(values)) c[at[k as keyof ComponentValues]] = v
  return c
}

/** The digits a rule contributes to the global score. */
export function digits(rule: { rank(c: Int32Array, digit: (r: number, m: number) => void): void }, c: Int32Array): [number, number][] {
  const out: [number, number][] = []
  rule.rank(c, (r, m) => out.push([r, m]))
  return out
}

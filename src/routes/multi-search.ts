/**
 * `POST /multi-search`, with and without `federation`, as Meilisearch answers it
 * (`crates/meilisearch/src/routes/multi_search.rs`, `crates/meilisearch/src/search/federated/{types,perform}.rs`,
 * `SearchQueryWithIndex` in `crates/meilisearch/src/search/mod.rs`, messages in `crates/meilisearch/src/error.rs`).
 *
 * - The body is deserr-validated in key order (first error wins): `{queries: [...], federation?}`. A query is a
 *   search body plus `indexUid` (required: `missing_index_uid`) and `federationOptions {weight, remote,
 *   queryPosition}`; there `offset`, `limit` and `showPerformanceDetails` are optional (`null` is absent).
 * - Without `federation`: `{results: [{indexUid, ...search response}]}` in query order. A query with
 *   `federationOptions` fails (`invalid_multi_search_federation_options`), and so does a query whose search fails,
 *   its message prefixed with ``Inside `.queries[N]`: ``.
 * - With `federation`: a query with `offset`/`limit`/`page`/`hitsPerPage` (`invalid_multi_search_query_pagination`)
 *   or non-empty `facets` (`invalid_multi_search_query_facets`) fails; queries then run index by index in uid order
 *   (so the first missing index in that order is the one reported, at its first query), and their hits are merged
 *   (engine/search/federation.ts).
 * - A missing index inside a query is `index_not_found` with status 400 (the resource is not in the URL).
 */
import { TesseraError, describeCode, errorObject, type ErrorCode } from '../../engine/errors/index.js'
import { at, invalidType, invalidValue, missingField, unknownField, expectNumber, type Path } from '../../engine/errors/deserr.js'
import {
  parseSearchBody, defaultSearchQuery, SEARCH_BODY_FIELDS, DEFAULT_SEARCH_LIMIT, DEFAULT_SEARCH_OFFSET, type SearchQuery,
} from '../../engine/search/query.js'
import {
  federationWindow, federatedHitsInfo, mergeFederatedHits, indexHitCount, type FederationPagination, type QueryHits,
} from '../../engine/search/federation.js'
import type { Engine } from '../../engine/index.js'
import { json } from '../http/json.js'
import { isValidIndexUid, indexUidMessage } from '../validation/index-uid.js'
import type { AppRouter } from './context.js'

type JsonObject = Record<string, unknown>

const BODY_FIELDS = ['queries', 'federation'] as const
const QUERY_FIELDS = ['indexUid', ...SEARCH_BODY_FIELDS, 'federationOptions'] as const
const FEDERATION_OPTIONS_FIELDS = ['weight', 'remote', 'queryPosition'] as const
const FEDERATION_FIELDS = ['limit', 'offset', 'page', 'hitsPerPage', 'facetsByIndex', 'mergeFacets'] as const

const WEIGHT_MESSAGE = 'the value of `weight` is invalid, expected a positive float (>= 0.0).'

interface FederationOptions {
  weight: number
  remote: string | null
  queryPosition: number | null
}

interface MultiQuery {
  indexUid: string
  query: SearchQuery
  /** Keys sent with a non-null value (for the federated checks). */
  present: Set<string>
  federationOptions: FederationOptions | null
}

interface Federation extends FederationPagination {
  facetsByIndex: Map<string, string[] | null>
  mergeFacets: { maxValuesPerFacet: number | null } | null
}

interface MultiSearchBody {
  queries: MultiQuery[]
  federation: Federation | null
}

// ---- validation ------------------------------------------------------------------------------------------------

const isObject = (v: unknown): v is JsonObject => v !== null && typeof v === 'object' && !Array.isArray(v)

function usize(v: unknown, path: Path, code: ErrorCode): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0) throw invalidType(code, path, 'a positive integer', v)
  return v
}

/** A search-body field, validated by the single-search parser, its error located inside `.queries[N]`. */
function searchField(query: SearchQuery, key: string, value: unknown, path: Path): void {
  let parsed: SearchQuery
  try {
    parsed = parseSearchBody({ [key]: value })
  } catch (err) {
    if (err instanceof TesseraError) throw new TesseraError(err.code, err.message.replace(`\`.${key}`, `\`${path}.${key}`))
    throw err
  }
  ;(query as unknown as JsonObject)[key] = (parsed as unknown as JsonObject)[key]
}

function parseFederationOptions(value: unknown, path: Path): FederationOptions | null {
  if (value === null) return null
  if (!isObject(value)) throw invalidType('bad_request', path, 'an object', value)
  const options: FederationOptions = { weight: 1, remote: null, queryPosition: null }
  for (const key of Object.keys(value)) {
    const v = value[key]
    const p = at(path, key)
    switch (key) {
      case 'weight': {
        const w = expectNumber(v, p, 'invalid_multi_search_weight')
        if (w < 0) throw invalidValue('invalid_multi_search_weight', p, WEIGHT_MESSAGE)
        options.weight = w
        break
      }
      case 'remote':
        if (v !== null && typeof v !== 'string') throw invalidType('invalid_multi_search_remote', p, 'a string', v)
        options.remote = v
        break
      case 'queryPosition': options.queryPosition = v === null ? null : usize(v, p, 'invalid_multi_search_query_position'); break
      default: throw unknownField(path, key, FEDERATION_OPTIONS_FIELDS)
    }
  }
  return options
}

function parseQuery(value: unknown, path: Path): MultiQuery {
  if (!isObject(value)) throw invalidType('bad_request', path, 'an object', value)
  const query = defaultSearchQuery()
  const present = new Set<string>()
  let indexUid: string | undefined
  let federationOptions: FederationOptions | null = null
  for (const key of Object.keys(value)) {
    const v = value[key]
    const p = at(path, key)
    if (key === 'indexUid') {
      if (typeof v !== 'string') throw invalidType('invalid_index_uid', p, 'a string', v)
      if (!isValidIndexUid(v)) throw invalidValue('invalid_index_uid', p, indexUidMessage(v))
      indexUid = v
    } else if (key === 'federationOptions') {
      federationOptions = parseFederationOptions(v, p)
    } else if (!(QUERY_FIELDS as readonly string[]).includes(key)) {
      throw unknownField(path, key, QUERY_FIELDS)
    } else if (v === null && (key === 'offset' || key === 'limit' || key === 'showPerformanceDetails')) {
      // `Option` in `SearchQueryWithIndex` (not in `SearchQuery`): null is absent.
    } else {
      searchField(query, key, v, path)
      if (v !== null) present.add(key)
    }
  }
  if (indexUid === undefined) throw missingField('missing_index_uid', path, 'indexUid')
  return { indexUid, query, present, federationOptions }
}

function parseFacetsByIndex(value: unknown, path: Path): Map<string, string[] | null> {
  const code = 'invalid_multi_search_facets_by_index'
  const out = new Map<string, string[] | null>()
  if (value === null) return out
  if (!isObject(value)) throw invalidType(code, path, 'an object', value)
  for (const uid of Object.keys(value)) {
    // GUESSED: the key's error; Meilisearch parses keys as `IndexUid`.
    if (!isValidIndexUid(uid)) throw invalidValue(code, path, indexUidMessage(uid))
    const facets = value[uid]
    const p = at(path, uid)
    if (facets === null) { out.set(uid, null); continue }
    if (!Array.isArray(facets)) throw invalidType(code, p, 'an array', facets)
    out.set(uid, facets.map((f, i) => {
      if (typeof f !== 'string') throw invalidType(code, at(p, i), 'a string', f)
      return f
    }))
  }
  return out
}

function parseMergeFacets(value: unknown, path: Path): { maxValuesPerFacet: number | null } | null {
  const code = 'invalid_multi_search_merge_facets'
  if (value === null) return null
  if (!isObject(value)) throw invalidType(code, path, 'an object', value)
  const merge = { maxValuesPerFacet: null as number | null }
  for (const key of Object.keys(value)) {
    const v = value[key]
    if (key !== 'maxValuesPerFacet') throw unknownField(path, key, ['maxValuesPerFacet'], code)
    merge.maxValuesPerFacet = v === null ? null : usize(v, at(path, key), 'invalid_multi_search_max_values_per_facet')
  }
  return merge
}

function parseFederation(value: unknown, path: Path): Federation | null {
  if (value === null) return null
  if (!isObject(value)) throw invalidType('bad_request', path, 'an object', value)
  const federation: Federation = {
    limit: DEFAULT_SEARCH_LIMIT, offset: DEFAULT_SEARCH_OFFSET, page: null, hitsPerPage: null,
    facetsByIndex: new Map(), mergeFacets: null,
  }
  for (const key of Object.keys(value)) {
    const v = value[key]
    const p = at(path, key)
    switch (key) {
      case 'limit': federation.limit = usize(v, p, 'invalid_search_limit'); break
      case 'offset': federation.offset = usize(v, p, 'invalid_search_offset'); break
      case 'page': federation.page = v === null ? null : usize(v, p, 'invalid_search_page'); break
      case 'hitsPerPage': federation.hitsPerPage = v === null ? null : usize(v, p, 'invalid_search_hits_per_page'); break
      case 'facetsByIndex': federation.facetsByIndex = parseFacetsByIndex(v, p); break
      case 'mergeFacets': federation.mergeFacets = parseMergeFacets(v, p); break
      default: throw unknownField(path, key, FEDERATION_FIELDS)
    }
  }
  return federation
}

/** `FederatedSearch` (deny unknown fields, keys in order, first error wins). */
export function parseMultiSearchBody(body: unknown): MultiSearchBody {
  if (!isObject(body)) throw invalidType('bad_request', '', 'an object', body)
  let queries: MultiQuery[] | undefined
  let federation: Federation | null = null
  for (const key of Object.keys(body)) {
    const v = body[key]
    const p = at('', key)
    if (key === 'queries') {
      if (!Array.isArray(v)) throw invalidType('bad_request', p, 'an array', v)
      queries = v.map((q, i) => parseQuery(q, at(p, i)))
    } else if (key === 'federation') {
      federation = parseFederation(v, p)
    } else {
      throw unknownField('', key, BODY_FIELDS)
    }
  }
  if (queries === undefined) throw missingField('bad_request', '', 'queries')
  return { queries, federation }
}

// ---- execution -------------------------------------------------------------------------------------------------

/** An error raised while running query `n`: its message located, `index_not_found` answered with 400. */
class QueryError extends Error {
  constructor(readonly code: ErrorCode, message: string, readonly status: number) { super(message) }
}

function inside(err: unknown, n: number): unknown {
  if (!(err instanceof TesseraError)) return err
  const status = err.code === 'index_not_found' ? 400 : err.status
  return new QueryError(err.code, `Inside \`.queries[${n}]\`: ${err.message}`, status)
}

/** Rust's `{:?}` of a `Vec<String>`. */
function debugList(items: readonly string[]): string {
  const quote = (s: string) => `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n').replace(/\r/g, '\\r').replace(/\t/g, '\\t')}"`
  return `[${items.map(quote).join(', ')}]`
}

async function multiSearch(engine: Engine, queries: MultiQuery[]): Promise<JsonObject> {
  const results: JsonObject[] = []
  for (let n = 0; n < queries.length; n++) {
    const { indexUid, query, federationOptions } = queries[n]!
    if (federationOptions !== null) {
      throw new QueryError('invalid_multi_search_federation_options', `Inside \`.queries[${n}]\`: Using \`federationOptions\` is not allowed in a non-federated search.\n - Hint: remove \`federationOptions\` from query #${n} or add \`federation\` to the request.`, 400)
    }
    try {
      results.push({ indexUid, ...(await engine.search(indexUid, query)) })
    } catch (err) {
      throw inside(err, n)
    }
  }
  return { results }
}

const PAGINATION_FIELDS = ['offset', 'limit', 'page', 'hitsPerPage'] as const

async function federatedSearch(engine: Engine, queries: MultiQuery[], federation: Federation): Promise<JsonObject> {
  const start = performance.now()
  // Checks made while partitioning the queries, in query order.
  const positions: number[] = []
  for (let n = 0; n < queries.length; n++) {
    const { indexUid, query, present, federationOptions } = queries[n]!
    const paginated = PAGINATION_FIELDS.find((f) => present.has(f))
    if (paginated !== undefined) {
      throw new QueryError('invalid_multi_search_query_pagination', `Inside \`.queries[${n}]\`: Using pagination options is not allowed in federated queries.\n - Hint: remove \`${paginated}\` from query #${n} or remove \`federation\` from the request\n - Hint: pass \`federation.limit\` and \`federation.offset\` for pagination in federated search`, 400)
    }
    if (query.facets !== null && query.facets.length > 0) {
      throw new QueryError('invalid_multi_search_query_facets', `Inside \`.queries[${n}]\`: Using facet options is not allowed in federated queries.\n - Hint: remove \`facets\` from query #${n} or remove \`federation\` from the request\n - Hint: pass \`federation.facetsByIndex.${indexUid}: ${debugList(query.facets)}\` for facets in federated search`, 400)
    }
    if (federationOptions?.remote != null) {
      engine.features.require('network', 'Performing a remote federated search')
      throw new TesseraError('invalid_multi_search_remote', `Invalid \`queries[${n}].federation_options.remote\`: remote \`${federationOptions.remote}\` is not registered`)
    }
    if (federationOptions?.queryPosition != null) engine.features.require('network', 'Using `federationOptions.queryPosition`')
    positions.push(federationOptions?.queryPosition ?? n)
  }

  const window = federationWindow(federation)
  // Queries run index by index, indexes in uid order, queries of an index in request order.
  const byIndex = new Map<string, number[]>()
  queries.forEach((q, n) => byIndex.set(q.indexUid, [...(byIndex.get(q.indexUid) ?? []), n]))
  const uids = [...byIndex.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
  const merged: QueryHits[] = []
  let hitNumber = 0
  for (const uid of uids) {
    const ns = byIndex.get(uid)!
    const counts: { candidates: number; docids: number[] }[] = []
    let documents = 0
    for (const n of ns) {
      const { query, federationOptions } = queries[n]!
      const position = positions[n]!
      let result: Awaited<ReturnType<Engine['federatedQuery']>>
      try {
        result = await engine.federatedQuery(uid, query, window.required)
      } catch (err) {
        // A missing index is reported at the first query of that index.
        throw inside(err, err instanceof TesseraError && err.code === 'index_not_found' ? positions[ns[0]!]! : position)
      }
      documents = result.documents
      counts.push({ candidates: result.candidates, docids: result.docids })
      merged.push({
        indexUid: uid, position, weight: federationOptions?.weight ?? 1, showRankingScore: query.showRankingScore,
        hits: result.hits, docids: result.docids,
      })
    }
    hitNumber += indexHitCount(counts, documents)
  }
  // Indexes named in `facetsByIndex` but not queried must exist too.
  for (const uid of federation.facetsByIndex.keys()) {
    if (byIndex.has(uid)) continue
    try {
      engine.getIndex(uid)
    } catch (err) {
      if (err instanceof TesseraError) {
        throw new QueryError(err.code, `Inside \`.federation.facetsByIndex.${uid}\`: ${err.message}\n - Note: index \`${uid}\` is not used in queries`, 400)
      }
      throw err
    }
  }
  // Merge in query order so that equal positions keep the request's order.
  merged.sort((a, b) => a.position - b.position)
  const hits = mergeFederatedHits(merged, window.skip, window.take)
  return { hits, processingTimeMs: Math.floor(performance.now() - start), ...federatedHitsInfo(federation, hitNumber) }
}

export function multiSearchRoutes(router: AppRouter): void {
  router.on('POST', '/multi-search', async (ctx) => {
    try {
      const { queries, federation } = parseMultiSearchBody(await ctx.body())
      const result = federation === null ? await multiSearch(ctx.engine, queries) : await federatedSearch(ctx.engine, queries, federation)
      return json(200, result)
    } catch (err) {
      if (err instanceof QueryError) return json(err.status, errorObject(err.code, err.message))
      // Codes of this route the shared table does not know yet (status 400, invalid_request).
      if (err instanceof TesseraError && err.code.startsWith('invalid_multi_search_') && describeCode(err.code).type === 'internal') {
        return json(400, { ...errorObject(err.code, err.message), type: 'invalid_request' })
      }
      throw err
    }
  })
}

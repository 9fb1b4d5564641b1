/**
 * A dump in Meilisearch's documented v6 layout (`crates/dump`), built file by file as Meilisearch v1.x writes it
 * (TaskDump lines with `KindDump` types and `Details` enums, snake_case keys, RFC 3339 dates), then packed as a
 * gzipped tar: the fixture for importing a Meilisearch dump, built at test time rather than kept as a binary.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import * as tar from 'tar'

export const MEILI_DUMP_KEY_UID = '9f8a34da-b6b2-42f0-939b-dbd4c3448655'

const jsonl = (rows: unknown[]) => rows.map((r) => JSON.stringify(r)).join('\n') + '\n'

export interface MeiliDumpOptions {
  /** `metadata.json`'s dumpVersion (V6 unless a test wants another). */
  version?: string
  /** Text appended to `tasks/queue.jsonl` (a malformed line, for instance). */
  extraTaskLine?: string
}

/** Write the dump to `file`. */
export async function buildMeiliDump(file: string, options: MeiliDumpOptions = {}): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'meili-dump-'))
  try {
    const w = (path: string, text: string) => { mkdirSync(join(dir, path, '..'), { recursive: true }); writeFileSync(join(dir, path), text) }
    w('metadata.json', JSON.stringify({ dumpVersion: options.version ?? 'V6', dbVersion: '1.12.0', dumpDate: '2024-11-21T10:00:00.123456Z' }))
    w('instance_uid.uuid', '9e15e977-f2ae-4761-943f-1eaf75fd736d')
    w('network.json', JSON.stringify({ self: 'ms-0', remotes: { 'ms-0': { url: 'http://localhost:7700', searchApiKey: null }, 'ms-1': { url: 'http://localhost:7701', searchApiKey: 'foo', writeApiKey: 'bar' } }, sharding: false }))
    w('experimental-features.json', JSON.stringify({ metrics: false, logsRoute: false, editDocumentsByFunction: true, containsFilter: true, network: true, getTaskDocumentsRoute: false, compositeEmbedders: false }))
    w('keys.jsonl', jsonl([
      { description: 'The main key to manage all the doggos', name: 'doggos_key', uid: MEILI_DUMP_KEY_UID, actions: ['documents.*', 'search'], indexes: ['doggos'], expires_at: '4130-03-14T12:21:00Z', created_at: '1960-11-15T00:00:00Z', updated_at: '2022-11-10T00:00:00Z' },
      { name: 'admin', uid: '4622f717-1c00-47bb-a494-39d76a49b591', actions: ['*'], indexes: ['*'], expires_at: null, created_at: '2022-01-01T00:01:00Z', updated_at: '2022-05-04T17:25:00Z' },
    ]))
    w('tasks/queue.jsonl', jsonl([
      { uid: 0, batchUid: 0, indexUid: 'doggos', status: 'succeeded', type: { documentImport: { primary_key: 'id', method: 'ReplaceDocuments', documents_count: 3, allow_index_creation: true } }, details: { DocumentAdditionOrUpdate: { received_documents: 3, indexed_documents: 3 } }, enqueuedAt: '2024-11-20T10:00:00Z', startedAt: '2024-11-20T10:00:01Z', finishedAt: '2024-11-20T10:00:02.5Z' },
      { uid: 1, batchUid: 1, indexUid: 'doggos', status: 'succeeded', type: { settings: { settings: { filterableAttributes: ['race', 'age'], sortableAttributes: ['age'] }, is_deletion: false, allow_index_creation: true } }, details: { SettingsUpdate: { settings: { filterableAttributes: ['race', 'age'], sortableAttributes: ['age'] } } }, enqueuedAt: '2024-11-20T10:01:00Z', startedAt: '2024-11-20T10:01:01Z', finishedAt: '2024-11-20T10:01:02Z' },
      { uid: 2, batchUid: 2, indexUid: 'catto', status: 'failed', type: { indexCreation: { primary_key: null } }, details: { IndexInfo: { primary_key: null } }, error: { message: 'Index `catto` already exists.', code: 'index_already_exists', type: 'invalid_request', link: 'https://docs.meilisearch.com/errors#index_already_exists' }, enqueuedAt: '2024-11-20T10:02:00Z', startedAt: '2024-11-20T10:02:01Z', finishedAt: '2024-11-20T10:02:02Z' },
      { uid: 3, batchUid: null, indexUid: 'doggos', status: 'enqueued', type: { documentImport: { primary_key: null, method: 'UpdateDocuments', documents_count: 2, allow_index_creation: true } }, details: { DocumentAdditionOrUpdate: { received_documents: 2, indexed_documents: null } }, enqueuedAt: '2024-11-20T10:03:00Z' },
    ]))
    if (options.extraTaskLine !== undefined) writeFileSync(join(dir, 'tasks/queue.jsonl'), options.extraTaskLine + '\n', { flag: 'a' })
    w('tasks/update_files/3.jsonl', jsonl([{ id: 4, race: 'leonberg', name: 'max', age: 2 }, { id: 5, race: 'patou', name: 'rex', age: 9 }]))
    w('batches/queue.jsonl', jsonl([
      { uid: 0, details: { receivedDocuments: 3, indexedDocuments: 3 }, stats: { totalNbTasks: 1, status: { succeeded: 1 }, types: { documentAdditionOrUpdate: 1 }, indexUids: { doggos: 1 }, progressTrace: {}, internalDatabaseSizes: {} }, startedAt: '2024-11-20T10:00:01Z', finishedAt: '2024-11-20T10:00:02.5Z', enqueuedAt: { earliest: '2024-11-20T10:00:00Z', oldest: '2024-11-20T10:00:00Z' }, stopReason: 'batched all enqueued tasks' },
      { uid: 1, details: { filterableAttributes: ['race', 'age'], sortableAttributes: ['age'] }, stats: { totalNbTasks: 1, status: { succeeded: 1 }, types: { settingsUpdate: 1 }, indexUids: { doggos: 1 } }, startedAt: '2024-11-20T10:01:01Z', finishedAt: '2024-11-20T10:01:02Z', stopReason: 'batched all enqueued tasks for index `doggos`' },
      { uid: 2, details: { primaryKey: null }, stats: { totalNbTasks: 1, status: { failed: 1 }, types: { indexCreation: 1 }, indexUids: { catto: 1 } }, startedAt: '2024-11-20T10:02:01Z', finishedAt: '2024-11-20T10:02:02Z', stopReason: 'task with id 2 of type `indexCreation` cannot be batched' },
    ]))
    w('indexes/doggos/metadata.json', JSON.stringify({ uid: 'doggos', primaryKey: 'id', createdAt: '2024-11-20T10:00:01Z', updatedAt: '2024-11-20T10:01:02Z' }))
    w('indexes/doggos/settings.json', JSON.stringify({
      displayedAttributes: ['*'], searchableAttributes: ['*'], filterableAttributes: ['race', 'age'], sortableAttributes: ['age'],
      rankingRules: ['words', 'typo', 'proximity', 'attribute', 'sort', 'exactness'], stopWords: [], nonSeparatorTokens: [], separatorTokens: [],
      dictionary: [], synonyms: {}, distinctAttribute: null, proximityPrecision: 'byWord',
      typoTolerance: { enabled: true, minWordSizeForTypos: { oneTypo: 5, twoTypos: 9 }, disableOnWords: [], disableOnAttributes: [] },
      faceting: { maxValuesPerFacet: 100, sortFacetValuesBy: { '*': 'alpha' } }, pagination: { maxTotalHits: 1000 }, embedders: {},
      searchCutoffMs: null, localizedAttributes: null, facetSearch: true, prefixSearch: 'indexingTime',
    }))
    w('indexes/doggos/documents.jsonl', jsonl([
      { id: 1, race: 'golden retriever', name: 'paul', age: 4 },
      { id: 2, race: 'bernese mountain', name: 'tamo', age: 6 },
      { id: 3, race: 'great pyrenees', name: 'patou', age: 5 },
    ]))
    await tar.c({ gzip: true, file, cwd: dir, portable: true }, ['.'])
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

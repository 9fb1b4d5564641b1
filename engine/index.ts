/**
 * The engine's public surface: `Engine` (open, close) and one operation per verb (`operations/`), each a function
 * of the engine and a typed, validated request. The engine knows nothing of HTTP: the front end parses requests
 * (`src/api/`) and calls these.
 */
export { Engine, type EngineOptions } from './engine.js'
export type { WorkerPool } from './pool/index.js'
export { TesseraError } from './errors/index.js'

export { getTask } from './operations/get-task.js'
export { listTasks, type ListPage } from './operations/list-tasks.js'
export { getBatch } from './operations/get-batch.js'
export { listBatches } from './operations/list-batches.js'
export { cancelTasks } from './operations/cancel-tasks.js'
export { deleteTasks } from './operations/delete-tasks.js'
export { waitForTask } from './operations/wait-for-task.js'

export { listIndexes } from './operations/list-indexes.js'
export { getIndex } from './operations/get-index.js'
export { createIndex } from './operations/create-index.js'
export { updateIndex } from './operations/update-index.js'
export { compactIndex } from './operations/compact-index.js'
export { deleteIndex } from './operations/delete-index.js'
export { swapIndexes } from './operations/swap-indexes.js'
export { updateNetwork } from './operations/update-network.js'
export { shardTransfer } from './operations/shard-transfer.js'
export { indexStats, type IndexStats } from './operations/index-stats.js'
export { globalStats, type GlobalStats } from './operations/global-stats.js'

export { addDocuments, type DocumentAdditionRequest } from './operations/add-documents.js'
export { getDocument } from './operations/get-document.js'
export { listDocuments } from './operations/list-documents.js'
export { listFields, type FieldsQuery, type FieldsFilter, type FieldsPage } from './operations/list-fields.js'
export { deleteDocuments } from './operations/delete-documents.js'
export { deleteDocumentsByFilter } from './operations/delete-documents-by-filter.js'
export { clearDocuments } from './operations/clear-documents.js'
export { editDocuments } from './operations/edit-documents.js'

export { getSettings } from './operations/get-settings.js'
export { updateSettings } from './operations/update-settings.js'

export { search, searchSerialized } from './operations/search.js'
export { facetSearch } from './operations/facet-search.js'
export { multiSearch, networkSearch } from './operations/multi-search.js'
export { similar } from './operations/similar.js'

export { createDump, importDump, UnreadableImport, DEFAULT_DUMP_DIR, type DumpImportOptions } from './dumps/index.js'
export { createSnapshot, importSnapshot, snapshotName, DEFAULT_SNAPSHOT_DIR } from './snapshots/index.js'

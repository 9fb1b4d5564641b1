/**
 * The one table of error codes. Every error Tessera returns, synchronously or as `task.error`, has a code
 * from this table, and the table alone decides its HTTP status and its `type`. Codes and their status/type
 * follow Meilisearch's `make_error_codes!` so clients that branch on them behave the same.
 */
export type ErrorType = 'invalid_request' | 'auth' | 'internal' | 'system'

type Entry = readonly [status: number, type: ErrorType]

const invalid = (status: number): Entry => [status, 'invalid_request']

/** Expand `prefix_{a,b}` families into their codes. */
function family(prefix: string, names: string[]): string[] {
  return names.map((n) => `${prefix}_${n}`)
}

const BAD_REQUEST_400: string[] = [
  'bad_request', 'malformed_payload', 'missing_payload', 'missing_document_id', 'invalid_document_id',
  'invalid_document_fields', 'invalid_document_filter', 'missing_document_filter',
  ...family('invalid_document', ['limit', 'offset', 'ids', 'sort', 'retrieve_vectors', 'csv_delimiter', 'geo_field', 'geojson_field']),
  'invalid_vector_dimensions', 'invalid_vectors_type', 'too_many_vectors', 'max_fields_limit_exceeded',
  'index_primary_key_already_exists', 'index_primary_key_no_candidate_found', 'index_primary_key_multiple_candidates_found',
  ...family('invalid_index', ['uid', 'primary_key', 'limit', 'offset', 'custom_metadata', 'fields_filter']),
  ...family('invalid_index_fields_filter', ['attribute_patterns', 'displayed', 'searchable', 'sortable', 'distinct', 'ranking_rule', 'filterable']),
  'missing_index_uid',
  ...family('invalid_search', ['q', 'offset', 'limit', 'page', 'hits_per_page', 'attributes_to_retrieve', 'attributes_to_crop',
    'attributes_to_highlight', 'attributes_to_search_on', 'crop_length', 'crop_marker', 'highlight_pre_tag', 'highlight_post_tag',
    'show_matches_position', 'show_ranking_score', 'show_ranking_score_details', 'show_performance_details',
    'ranking_score_threshold', 'filter', 'sort', 'distinct', 'facets', 'matching_strategy', 'semantic_ratio', 'embedder',
    'hybrid_query', 'vector', 'media', 'media_and_vector', 'retrieve_vectors', 'locales', 'personalize',
    'personalize_user_context', 'use_network']),
  'missing_search_hybrid',
  ...family('invalid_facet_search', ['facet_name', 'query', 'name', 'exhaustive_facet_count']),
  'missing_facet_search_facet_name', 'facet_search_disabled',
  ...family('invalid_settings', ['displayed_attributes', 'searchable_attributes', 'filterable_attributes', 'sortable_attributes',
    'ranking_rules', 'stop_words', 'non_separator_tokens', 'separator_tokens', 'dictionary', 'synonyms', 'distinct_attribute',
    'proximity_precision', 'typo_tolerance', 'faceting', 'pagination', 'embedders', 'search_cutoff_ms', 'localized_attributes',
    'facet_search', 'prefix_search', 'foreign_keys']),
  'invalid_settings_index_chat',
  ...family('invalid_task', ['uids', 'statuses', 'types', 'canceled_by', 'limit', 'from', 'reverse', 'before_enqueued_at',
    'after_enqueued_at', 'before_started_at', 'after_started_at', 'before_finished_at', 'after_finished_at']),
  'invalid_batch_uids', 'missing_task_filters',
  ...family('invalid_swap', ['indexes', 'duplicate_index_found', 'rename']),
  'missing_swap_indexes',
  ...family('invalid_api_key', ['actions', 'description', 'expires_at', 'indexes', 'limit', 'name', 'offset', 'uid']),
  ...family('missing_api_key', ['actions', 'indexes', 'expires_at']),
  ...family('immutable_api_key', ['actions', 'indexes', 'expires_at', 'created_at', 'updated_at', 'uid', 'key']),
  'immutable_index_created_at', 'immutable_index_updated_at', 'index_scoped_api_key_with_global_action',
  'feature_not_enabled', 'vector_embedding_error', 'not_found_similar_id',
  ...family('invalid_similar', ['id', 'offset', 'limit', 'attributes_to_retrieve', 'retrieve_vectors', 'filter', 'embedder',
    'show_ranking_score', 'show_ranking_score_details', 'show_performance_details', 'ranking_score_threshold']),
  'invalid_document_edition_context', 'invalid_document_edition_function_filter', 'missing_document_edition_function',
  'edit_documents_by_function_error',
  ...family('invalid_multi_search', ['federated', 'federation_options', 'weight', 'query_pagination', 'query_facets',
    'facets', 'facets_by_index', 'merge_facets', 'facet_order', 'distinct', 'remote', 'query_position', 'max_values_per_facet', 'query_ranking_rules', 'query_show_performance_details']),
  'invalid_header_value', 'inconsistent_document_change_headers',
  ...family('invalid_network', ['self', 'remotes', 'url', 'search_api_key', 'write_api_key', 'leader', 'shards']),
  'missing_network_url', 'unexpected_network_previous_remotes', 'remote_bad_request',
  'invalid_render_template', 'invalid_render_input', 'template_rendering_error',
]

const TABLE = new Map<string, Entry>([
  ...BAD_REQUEST_400.map((c) => [c, invalid(400)] as const),
  ['unretrievable_document', [400, 'internal']],
  ['missing_authorization_header', [401, 'auth']],
  ['missing_master_key', [401, 'auth']],
  ['invalid_api_key', [403, 'auth']],
  ['remote_invalid_api_key', [403, 'auth']],
  ...['index_not_found', 'document_not_found', 'task_not_found', 'batch_not_found', 'api_key_not_found', 'dump_not_found',
    'task_file_not_found', 'chat_not_found', 'webhook_not_found', 'route_not_found', 'render_document_not_found'].map((c) => [c, invalid(404)] as const),
  ...['index_already_exists', 'api_key_already_exists', 'dump_already_processing'].map((c) => [c, invalid(409)] as const),
  ['payload_too_large', invalid(413)],
  ...['invalid_content_type', 'missing_content_type', 'unsupported_media_type'].map((c) => [c, invalid(415)] as const),
  ...['no_space_left_on_device', 'io_error', 'too_many_open_files'].map((c) => [c, [422, 'system']] as const),
  ...['internal', 'database_size_limit_reached', 'index_creation_failed', 'dump_process_failed', 'invalid_state',
    'invalid_store_file'].map((c) => [c, [500, 'internal']] as const),
  ...['remote_bad_response', 'remote_could_not_send_request', 'remote_remote_error', 'remote_timeout'].map((c) => [c, [502, 'system']] as const),
  ['too_many_search_requests', [503, 'system']],
  // Tessera's cluster mode: the replicated task log refused or did not acknowledge a write; a read's task not applied in time.
  ...['task_log_unavailable', 'task_not_applied'].map((c) => [c, [503, 'system']] as const),
  ['requires_enterprise_edition', invalid(451)],
])

export type ErrorCode = string

/** Status and type of a code; unknown codes are a programming error and surface as `internal`. */
export function describeCode(code: ErrorCode): { status: number; type: ErrorType } {
  const entry = TABLE.get(code)
  if (!entry) return { status: 500, type: 'internal' }
  return { status: entry[0], type: entry[1] }
}


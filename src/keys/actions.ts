/**
 * The actions an API key may hold, as Meilisearch names them (`crates/meilisearch-types/src/keys.rs`, `Action`),
 * in its declaration order: that order is the one `POST /keys` lists in its "Unknown value" error. Several
 * actions name routes Tessera does not serve (dumps, chats, webhooks, ...): a key may still hold them, as a key
 * made for Meilisearch must be accepted unchanged.
 *
 * Wildcards (`*`, `documents.*`, `*.get`, ...) are expanded once, when a key is loaded or created
 * (`expandActions`), the way Meilisearch fills its inverted action table (`meilisearch-auth/src/store.rs`).
 */

export const MEILISEARCH_ACTIONS = [
  '*', 'search',
  'documents.*', 'documents.add', 'documents.get', 'documents.delete',
  'indexes.*', 'indexes.create', 'indexes.get', 'indexes.update', 'indexes.delete', 'indexes.swap',
  'tasks.*', 'tasks.cancel', 'tasks.delete', 'tasks.get',
  'settings.*', 'settings.get', 'settings.update',
  'stats.*', 'stats.get',
  'metrics.*', 'metrics.get',
  'dumps.*', 'dumps.create',
  'snapshots.*', 'snapshots.create',
  'version',
  'keys.create', 'keys.get', 'keys.update', 'keys.delete',
  'experimental.get', 'experimental.update',
  'export',
  'network.get', 'network.update',
  'chatCompletions', 'chats.*', 'chats.get', 'chats.delete', 'chatsSettings.*', 'chatsSettings.get', 'chatsSettings.update',
  '*.get',
  'webhooks.get', 'webhooks.update', 'webhooks.delete', 'webhooks.create', 'webhooks.*',
  'indexes.compact', 'fields.post', 'tasks.compact',
  'dynamicSearchRules.get', 'dynamicSearchRules.create', 'dynamicSearchRules.update', 'dynamicSearchRules.delete', 'dynamicSearchRules.*',
] as const

/**
 * Tessera's own actions: the workflow API (area D, `X-SERVICE-API-KEY`; src/workflows/auth.ts). A key may hold
 * them, but the "Unknown value" error lists Meilisearch's actions alone, word for word as Meilisearch does, so a
 * client or test matching that message sees the same text.
 */
const TESSERA_ACTIONS = [
  'workflows.*', 'workflows.list', 'workflows.get', 'workflows.create', 'workflows.update', 'workflows.delete',
  'workflows.activate', 'workflows.transfer', 'workflows.tags.get', 'workflows.tags.update',
  'tags.*', 'tags.list', 'tags.get', 'tags.create', 'tags.update', 'tags.delete',
  'projects.*', 'projects.list', 'projects.create',
] as const

export const ACTIONS = [...MEILISEARCH_ACTIONS, ...TESSERA_ACTIONS] as const

export type Action = (typeof ACTIONS)[number]

const ACTION_SET: ReadonlySet<string> = new Set(ACTIONS)

export function isAction(name: string): name is Action {
  return ACTION_SET.has(name)
}

/** The group wildcards and what each grants (`*` and `*.get` are handled apart). */
const GROUPS: Partial<Record<Action, readonly Action[]>> = {
  'documents.*': ['documents.add', 'documents.get', 'documents.delete'],
  'indexes.*': ['indexes.create', 'indexes.get', 'indexes.update', 'indexes.delete', 'indexes.swap', 'indexes.compact'],
  'tasks.*': ['tasks.cancel', 'tasks.delete', 'tasks.get', 'tasks.compact'],
  'settings.*': ['settings.get', 'settings.update'],
  'stats.*': ['stats.get'],
  'metrics.*': ['metrics.get'],
  'dumps.*': ['dumps.create'],
  'snapshots.*': ['snapshots.create'],
  'chats.*': ['chats.get', 'chats.delete'],
  'chatsSettings.*': ['chatsSettings.get', 'chatsSettings.update'],
  'webhooks.*': ['webhooks.get', 'webhooks.update', 'webhooks.delete', 'webhooks.create'],
  'dynamicSearchRules.*': ['dynamicSearchRules.get', 'dynamicSearchRules.create', 'dynamicSearchRules.update', 'dynamicSearchRules.delete'],
  'workflows.*': ['workflows.list', 'workflows.get', 'workflows.create', 'workflows.update', 'workflows.delete', 'workflows.activate', 'workflows.transfer', 'workflows.tags.get', 'workflows.tags.update'],
  'tags.*': ['tags.list', 'tags.get', 'tags.create', 'tags.update', 'tags.delete'],
  'projects.*': ['projects.list', 'projects.create'],
}

/**
 * What `*.get` grants: Meilisearch's `Action::is_read`. `keys.get` is left out on purpose (reading keys reveals
 * them: privilege escalation), and so is `chatCompletions` (it may start new chats).
 */
const READ_ACTIONS: readonly Action[] = [
  'search', 'documents.get', 'export', 'indexes.get', 'tasks.get', 'settings.get', 'stats.get', 'metrics.get', 'version',
  'experimental.get', 'network.get', 'chats.get', 'chatsSettings.get', 'webhooks.get', 'fields.post', 'dynamicSearchRules.get',
  'workflows.list', 'workflows.get', 'workflows.tags.get', 'tags.list', 'tags.get', 'projects.list',
]

/** The concrete actions (no wildcard) a list of actions grants. */
export function expandActions(actions: readonly Action[]): Set<Action> {
  const granted = new Set<Action>()
  for (const action of actions) {
    if (action === '*') {
      // Every action, the wildcards included (a route guarded by `documents.*` needs it), but `*.get`.
      for (const a of ACTIONS) if (a !== '*.get') granted.add(a)
    } else if (action === '*.get') {
      for (const a of READ_ACTIONS) granted.add(a)
    } else {
      const group = GROUPS[action]
      if (group) for (const a of group) granted.add(a)
      else granted.add(action)
    }
  }
  return granted
}

/**
 * Actions of routes that concern the whole instance rather than some indexes. A key restricted to some indexes
 * cannot be created with one of them (`index_scoped_api_key_with_global_action`), and cannot call their routes even
 * when it holds `*` (Meilisearch's `IndexScopePolicy::Deny` routes in `tests/auth/authorization.rs`).
 */
export const GLOBAL_ACTIONS: ReadonlySet<Action> = new Set<Action>([
  'version', 'keys.create', 'keys.get', 'keys.update', 'keys.delete', 'experimental.get', 'experimental.update',
  'network.get', 'network.update', 'metrics.*', 'metrics.get', 'dumps.*', 'dumps.create', 'snapshots.*',
  'snapshots.create', 'tasks.compact',
  // Workflows belong to no index: an index-scoped key cannot hold their actions.
  'workflows.*', 'workflows.list', 'workflows.get', 'workflows.create', 'workflows.update', 'workflows.delete',
  'workflows.activate', 'workflows.transfer', 'workflows.tags.get', 'workflows.tags.update',
  'tags.*', 'tags.list', 'tags.get', 'tags.create', 'tags.update', 'tags.delete', 'projects.*', 'projects.list', 'projects.create',
])

/** The actions that manage keys: without a master key their routes answer `missing_master_key`. */
export const KEY_ACTIONS: ReadonlySet<string> = new Set(['keys.create', 'keys.get', 'keys.update', 'keys.delete'])

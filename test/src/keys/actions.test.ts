/**
 * src/keys/actions.ts: Meilisearch's action names in declaration order (the order of `POST /keys`'s "Unknown
 * value" list in `tests/auth/errors.rs`), the wildcard expansion of `meilisearch-auth/src/store.rs` and
 * `Action::is_read`, and the instance-wide actions an index-restricted key may not hold.
 */
import t from 'tap'
import { ACTIONS, MEILISEARCH_ACTIONS, GLOBAL_ACTIONS, expandActions, isAction } from '../../../src/keys/actions.js'

t.test('the names and their order are Meilisearch\'s', async (t) => {
  t.equal(MEILISEARCH_ACTIONS.map((a) => `\`${a}\``).join(', '), '`*`, `search`, `documents.*`, `documents.add`, `documents.get`, `documents.delete`, `indexes.*`, `indexes.create`, `indexes.get`, `indexes.update`, `indexes.delete`, `indexes.swap`, `tasks.*`, `tasks.cancel`, `tasks.delete`, `tasks.get`, `settings.*`, `settings.get`, `settings.update`, `stats.*`, `stats.get`, `metrics.*`, `metrics.get`, `dumps.*`, `dumps.create`, `snapshots.*`, `snapshots.create`, `version`, `keys.create`, `keys.get`, `keys.update`, `keys.delete`, `experimental.get`, `experimental.update`, `export`, `network.get`, `network.update`, `chatCompletions`, `chats.*`, `chats.get`, `chats.delete`, `chatsSettings.*`, `chatsSettings.get`, `chatsSettings.update`, `*.get`, `webhooks.get`, `webhooks.update`, `webhooks.delete`, `webhooks.create`, `webhooks.*`, `indexes.compact`, `fields.post`, `tasks.compact`, `dynamicSearchRules.get`, `dynamicSearchRules.create`, `dynamicSearchRules.update`, `dynamicSearchRules.delete`, `dynamicSearchRules.*`')
  t.ok(isAction('documents.add'))
  t.notOk(isAction('doc.add'))
  t.notOk(isAction('Search'), 'case matters')
  t.ok(isAction('workflows.list') && isAction('projects.*'), "Tessera's workflow actions are accepted")
  t.same(ACTIONS.slice(0, MEILISEARCH_ACTIONS.length), MEILISEARCH_ACTIONS, "Meilisearch's come first")
})

t.test('wildcards expand to concrete actions', async (t) => {
  const all = expandActions(['*'])
  t.ok(all.has('keys.create') && all.has('search') && all.has('tasks.compact'), '`*` grants everything, keys included')
  // `*` grants the group wildcards too (a route guarded by `documents.*`, edit by function, needs it), never `*.get`.
  t.ok(all.has('documents.*') && all.has('workflows.*'), '`*` grants the groups')
  t.notOk(all.has('*.get'), '`*` does not grant `*.get`')
  t.notOk(expandActions(['documents.*']).has('documents.*'), 'a group does not grant itself')
  t.same([...expandActions(['documents.*'])].sort(), ['documents.add', 'documents.delete', 'documents.get'])
  t.same([...expandActions(['indexes.*'])].sort(), ['indexes.compact', 'indexes.create', 'indexes.delete', 'indexes.get', 'indexes.swap', 'indexes.update'])
  t.same([...expandActions(['tasks.*'])].sort(), ['tasks.cancel', 'tasks.compact', 'tasks.delete', 'tasks.get'])
  t.same([...expandActions(['settings.*', 'stats.*'])].sort(), ['settings.get', 'settings.update', 'stats.get'])
  const reads = expandActions(['*.get'])
  for (const a of ['search', 'documents.get', 'indexes.get', 'tasks.get', 'settings.get', 'stats.get', 'version', 'experimental.get'] as const) t.ok(reads.has(a), `*.get grants ${a}`)
  for (const a of ['keys.get', 'chatCompletions', 'documents.add', 'settings.update', 'tasks.cancel'] as const) t.notOk(reads.has(a), `*.get does not grant ${a}`)
  t.same([...expandActions(['search', 'search'])], ['search'], 'duplicates collapse')
})

t.test('instance-wide actions', async (t) => {
  for (const a of ['version', 'keys.get', 'keys.create', 'experimental.update', 'dumps.create', 'tasks.compact'] as const) t.ok(GLOBAL_ACTIONS.has(a), a)
  for (const a of ['search', 'documents.add', 'tasks.get', 'stats.get', 'indexes.swap', '*'] as const) t.notOk(GLOBAL_ACTIONS.has(a), a)
})

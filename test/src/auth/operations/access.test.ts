/** Access: Payload's sanitized permissions, Where constraints, doc access, globals, unlock access. */
import t from 'tap'
import { authHarness, rejectsWith } from '../../../helpers/auth.js'
import { sanitizePermissions } from '../../../../src/auth/access/sanitize.js'
import { accessOperation, docAccessOperation, globalAccessOperation } from '../../../../src/auth/operations/access.js'
import { createOperation } from '../../../../src/auth/operations/create.js'
import { findOperation } from '../../../../src/auth/operations/find.js'
import { loginOperation } from '../../../../src/auth/operations/login.js'
import { unlockOperation } from '../../../../src/auth/operations/unlock.js'
import type { AccessArgs } from '../../../../src/auth/config/types.js'

t.test('sanitize: true collapses, false goes, Where stays, all-true fields become true', async (t) => {
  t.same(sanitizePermissions({
    canAccessAdmin: false,
    collections: {
      posts: {
        fields: { title: { create: { permission: true }, read: { permission: true }, update: { permission: true } }, secret: { create: { permission: false }, read: { permission: true }, update: { permission: false } } },
        create: { permission: true }, read: { permission: true, where: { owner: { equals: 'u1' } } }, update: { permission: false }, delete: { permission: false },
      },
      hidden: { fields: { a: { create: { permission: false }, read: { permission: false }, update: { permission: false } } }, read: { permission: false } },
      open: { fields: { a: { create: { permission: true }, read: { permission: true }, update: { permission: true } } }, read: { permission: true } },
    },
  }), {
    collections: {
      posts: { fields: { title: true, secret: { read: true } }, create: true, read: { permission: true, where: { owner: { equals: 'u1' } } } },
      open: { fields: true, read: true },
    },
  })
})

t.test('the access operation runs each function for the user and sanitizes', async (t) => {
  const onlyAdmins = ({ req }: AccessArgs) => req.user?.role === 'admin'
  const ownRecord = ({ req }: AccessArgs) => (req.user ? { id: { equals: req.user.id } } : false)
  const h = await authHarness(t, {
    collections: [{ slug: 'users', auth: { maxLoginAttempts: 3 }, access: { read: ownRecord, update: ownRecord, create: onlyAdmins, delete: onlyAdmins }, fields: [{ name: 'role', type: 'text' }] }],
    globals: [{ slug: 'settings', access: { read: () => true, update: onlyAdmins } }],
  })
  t.same(await accessOperation({ auth: h.auth, req: h.args().req }), { globals: { settings: { fields: true, read: true } } }, 'nobody: only the open global')
  const ann = await createOperation({ ...h.args(), data: { email: 'ann@me.com', password: 'secret', role: 'editor' }, overrideAccess: true })
  const bob = await createOperation({ ...h.args(), data: { email: 'bob@me.com', password: 'secret', role: 'admin' }, overrideAccess: true })
  const annToken = (await loginOperation({ ...h.args(), data: { email: 'ann@me.com', password: 'secret' } })).token
  const bobToken = (await loginOperation({ ...h.args(), data: { email: 'bob@me.com', password: 'secret' } })).token
  const annAccess = await accessOperation({ auth: h.auth, req: h.args('users', annToken).req })
  t.match(annAccess, {
    canAccessAdmin: true,
    collections: { users: { read: { permission: true, where: { id: { equals: ann.id } } }, update: { permission: true, where: { id: { equals: ann.id } } }, unlock: true } },
  })
  t.notOk('create' in annAccess.collections!.users!, 'denied operations are left out')
  const bobAccess = await accessOperation({ auth: h.auth, req: h.args('users', bobToken).req })
  t.equal(bobAccess.collections!.users!.create, true)
  t.same(bobAccess.globals, { settings: { fields: true, read: true, update: true } })

  // For one document a Where decides whether that document is allowed (Payload keeps the Where beside it).
  const annOnAnn = await docAccessOperation({ auth: h.auth, collection: h.auth.collection('users')!, req: h.args('users', annToken).req, id: ann.id as string })
  t.same(annOnAnn.read, { permission: true, where: { id: { equals: ann.id } } })
  t.same(annOnAnn.update, { permission: true, where: { id: { equals: ann.id } } })
  const annOnBob = await docAccessOperation({ auth: h.auth, collection: h.auth.collection('users')!, req: h.args('users', annToken).req, id: bob.id as string })
  t.notOk('read' in annOnBob || 'update' in annOnBob, 'not on another user')
  t.same(await globalAccessOperation({ global: h.auth.config.globals[0]!, req: h.args('users', annToken).req }), { fields: true, read: true })

  // find honours the Where.
  const visible = await findOperation({ ...h.args('users', annToken) })
  t.same(visible.docs.map((d) => d.email), ['ann@me.com'])
  await rejectsWith(t, findOperation(h.args()), 'Forbidden', 403, 'You are not allowed to perform this action.')
})

t.test('unlock needs its access; by default a logged-in user of the admin collection', async (t) => {
  const h = await authHarness(t, { collections: [{ slug: 'users', auth: { maxLoginAttempts: 1 } }, { slug: 'members', auth: true }] })
  await createOperation({ ...h.args('users'), data: { email: 'admin@me.com', password: 'secret' }, overrideAccess: true })
  const member = await createOperation({ ...h.args('members'), data: { email: 'm@me.com', password: 'secret' }, overrideAccess: true })
  await createOperation({ ...h.args('users'), data: { email: 'locked@me.com', password: 'secret' }, overrideAccess: true })
  await t.rejects(loginOperation({ ...h.args('users'), data: { email: 'locked@me.com', password: 'bad' } }))
  const memberToken = (await loginOperation({ ...h.args('members'), data: { email: 'm@me.com', password: 'secret' } })).token
  t.ok(member.id)
  await rejectsWith(t, unlockOperation({ ...h.args('users'), data: {} }), 'APIError', 400, 'Missing email.')
  await rejectsWith(t, unlockOperation({ ...h.args('users'), data: { email: 'locked@me.com' } }), 'Forbidden', 403, 'You are not allowed to perform this action.')
  await rejectsWith(t, unlockOperation({ ...h.args('users', memberToken), data: { email: 'locked@me.com' } }), 'Forbidden', 403, 'You are not allowed to perform this action.')
  const adminToken = (await loginOperation({ ...h.args('users'), data: { email: 'admin@me.com', password: 'secret' } })).token
  t.equal(await unlockOperation({ ...h.args('users', adminToken), data: { email: 'LOCKED@me.com' } }), true)
  t.equal(await unlockOperation({ ...h.args('users', adminToken), data: { email: 'nobody@me.com' } }), null)
  const record = h.auth.users.byEmail('users', 'locked@me.com')!
  t.equal(record.loginAttempts, 0)
  t.equal(record.lockUntil, null)
})

/** Email verification: its own token (never the reset token), hidden, retired once used. */
import t from 'tap'
import { authHarness, rejectsWith } from '../../../helpers/auth.js'
import { createOperation } from '../../../../src/auth/operations/create.js'
import { findOperation, findByIDOperation } from '../../../../src/auth/operations/find.js'
import { forgotPasswordOperation } from '../../../../src/auth/operations/forgot-password.js'
import { loginOperation } from '../../../../src/auth/operations/login.js'
import { updateOperation } from '../../../../src/auth/operations/update.js'
import { verifyEmailOperation } from '../../../../src/auth/operations/verify-email.js'

t.test('verify sets _verified with the verification token only', async (t) => {
  const h = await authHarness(t, { collections: [{ slug: 'users', auth: { verify: true }, access: { create: () => true } }] })
  const created = await createOperation({ ...h.args(), data: { email: 'v@me.com', password: 'secret', _verified: true }, disableVerificationEmail: true })
  t.notOk('_verificationToken' in created, 'the token is hidden')
  t.notOk('_verified' in created, '_verified is not readable by nobody (field access)')
  const hidden = await findByIDOperation({ ...h.args(), id: created.id as string, overrideAccess: true, showHiddenFields: true })
  t.equal(hidden._verified, false, 'nobody cannot create a verified user')
  const verificationToken = hidden._verificationToken as string
  t.match(verificationToken, /^[0-9a-f]{40}$/)
  const found = await findOperation({ ...h.args(), overrideAccess: true, showHiddenFields: true, where: { email: { equals: 'v@me.com' } } })
  t.equal(found.docs[0]!._verificationToken, verificationToken, 'find with showHiddenFields shows it')
  t.notOk('_verificationToken' in (await findByIDOperation({ ...h.args(), id: created.id as string, overrideAccess: true })), 'and only then')

  const resetToken = (await forgotPasswordOperation({ ...h.args(), data: { email: 'v@me.com' }, disableEmail: true }))!
  t.not(resetToken, verificationToken, 'the reset token is a different token')
  await rejectsWith(t, verifyEmailOperation({ ...h.args(), token: resetToken }), 'APIError', 403, 'Verification token is invalid.')
  await rejectsWith(t, verifyEmailOperation({ ...h.args(), token: undefined }), 'APIError', 400, 'Missing required data.')
  await rejectsWith(t, loginOperation({ ...h.args(), data: { email: 'v@me.com', password: 'secret' } }), 'UnverifiedEmail', 403, 'Please verify your email before logging in.')

  t.equal(await verifyEmailOperation({ ...h.args(), token: verificationToken }), true)
  const after = await findByIDOperation({ ...h.args(), id: created.id as string, overrideAccess: true, showHiddenFields: true })
  t.equal(after._verified, true)
  t.equal(after._verificationToken, null, 'the token is retired')
  await rejectsWith(t, verifyEmailOperation({ ...h.args(), token: verificationToken }), 'APIError', 403, 'Verification token is invalid.')
  t.ok((await loginOperation({ ...h.args(), data: { email: 'v@me.com', password: 'secret' } })).token, 'a verified user logs in')
})

t.test('verifying by hand (update) retires the token; a collection without verification has no token', async (t) => {
  const h = await authHarness(t, { collections: [{ slug: 'users', auth: { verify: true } }, { slug: 'plain', auth: true }] })
  const user = await createOperation({ ...h.args('users'), data: { email: 'h@me.com', password: 'secret' }, overrideAccess: true, disableVerificationEmail: true })
  const updated = await updateOperation({ ...h.args('users'), id: user.id as string, data: { _verified: true }, overrideAccess: true, showHiddenFields: true })
  t.equal(updated._verified, true)
  t.equal(updated._verificationToken, null)
  const plain = await createOperation({ ...h.args('plain'), data: { email: 'h@me.com', password: 'secret' }, overrideAccess: true, showHiddenFields: true })
  t.notOk('_verificationToken' in plain || '_verified' in plain)
})

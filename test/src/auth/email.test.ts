/**
 * Area A's mail through a real SMTP server (smtp-server on 127.0.0.1, parsed with mailparser): the reset link
 * completes a reset, the verification link verifies, links come from the request without serverURL, and a
 * collection's HTML and subject overrides are used.
 */
import t from 'tap'
import { SMTPServer } from 'smtp-server'
import { simpleParser, type ParsedMail } from 'mailparser'
import type { AddressInfo } from 'node:net'
import { call } from '../../helpers/server.js'
import { authServer } from '../../helpers/auth.js'

async function smtpSink(t: { teardown(fn: () => unknown): void }): Promise<{ port: number; next(): Promise<ParsedMail> }> {
  const mails: ParsedMail[] = []
  const waiting: ((m: ParsedMail) => void)[] = []
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    onData(stream, _session, callback) {
      simpleParser(stream).then((mail) => {
        const waiter = waiting.shift()
        if (waiter) waiter(mail)
        else mails.push(mail)
        callback()
      }, callback)
    },
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())))
  return {
    port: (server.server.address() as AddressInfo).port,
    next: () => {
      const mail = mails.shift()
      if (mail) return Promise.resolve(mail)
      return new Promise<ParsedMail>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('no mail within 10 s')), 10_000)
        waiting.push((m) => { clearTimeout(timer); resolve(m) })
      })
    },
  }
}

t.test('reset and verification mails over SMTP', async (t) => {
  const smtp = await smtpSink(t)
  const server = await authServer(t, `
export default {
  secret: 'email-test-secret',
  email: { smtp: 'smtp://127.0.0.1:${smtp.port}', fromName: 'Tessera', fromAddress: 'no-reply@app.test' },
  collections: [
    { slug: 'users', auth: true },
    { slug: 'members', labels: { singular: 'Member' }, auth: { verify: true }, access: { create: () => true } },
    { slug: 'staff', auth: { forgotPassword: {
      generateEmailHTML: ({ token, user }) => '<p>Hi ' + user.email + '</p><a href="https://front.test/reset?t=' + token + '">reset</a>',
      generateEmailSubject: ({ user }) => 'Reset for ' + user.email,
    } }, access: { create: () => true } },
  ],
}
`)
  const api = `${server.url}/api`
  const origin = `http://127.0.0.1:${server.port}`
  await call(`${api}/users/first-register`, { method: 'POST', json: { email: 'dev@app.test', password: 'old-pass' } })

  // Forgot password: the mail's link carries the token; the reset completes with it.
  t.same((await call(`${api}/users/forgot-password`, { method: 'POST', json: { email: 'DEV@app.test' } })).body, { message: 'Success' })
  const reset = await smtp.next()
  t.equal(reset.subject, 'Reset Your Password')
  t.equal(reset.from?.text, '"Tessera" <no-reply@app.test>')
  t.equal(reset.to && !Array.isArray(reset.to) ? reset.to.text : '', 'dev@app.test')
  const link = /href="([^"]+)"/.exec(String(reset.html))![1]!
  t.match(link, new RegExp(`^${origin}/admin/reset/[0-9a-f]{40}$`), 'the link is built from the request (no serverURL)')
  t.match(String(reset.html), /^You are receiving this because you \(or someone else\) have requested the reset of the password for your account\./)
  t.match(String(reset.html), /If you did not request this, please ignore this email and your password will remain unchanged\.\s*$/)
  const token = link.split('/').pop()!
  const done = await call(`${api}/users/reset-password`, { method: 'POST', json: { token, password: 'new-pass' } })
  t.equal(done.status, 200)
  t.same(Object.keys(done.body), ['message', 'token', 'user'])
  t.equal(done.body.message, 'Password reset successfully.')
  t.match(done.headers.get('set-cookie'), /^tessera-token=ey/)
  t.equal((await call(`${api}/users/me`, { headers: { authorization: `JWT ${done.body.token}` } })).body.user.email, 'dev@app.test', 'logged in by the reset')
  t.equal((await call(`${api}/users/login`, { method: 'POST', json: { email: 'dev@app.test', password: 'old-pass' } })).status, 401)
  t.equal((await call(`${api}/users/login`, { method: 'POST', json: { email: 'dev@app.test', password: 'new-pass' } })).status, 200)
  t.equal((await call(`${api}/users/reset-password`, { method: 'POST', json: { token, password: 'again-pass' } })).status, 403, 'the token works once')

  // Unknown email: same answer, no mail.
  t.same((await call(`${api}/users/forgot-password`, { method: 'POST', json: { email: 'nobody@app.test' } })).body, { message: 'Success' })

  // Verification: the mail on create, the link verifies.
  t.equal((await call(`${api}/members`, { method: 'POST', json: { email: 'new@app.test', password: 'member-pass' } })).status, 201)
  const verify = await smtp.next()
  t.equal(verify.subject, 'Verify your email', 'not the unknown-email reset: none was sent')
  const verifyLink = /<a href="([^"]*)">/g
  const links = [...String(verify.html).matchAll(verifyLink)].map((m) => m[1])
  t.match(links[1], new RegExp(`^${origin}/admin/members/verify/[0-9a-f]{40}$`))
  t.match(String(verify.html), /^A new account has just been created for you to access <a href=""><\/a> Please click on the following link/)
  t.equal((await call(`${api}/members/login`, { method: 'POST', json: { email: 'new@app.test', password: 'member-pass' } })).status, 403)
  const verified = await call(`${api}/members/verify/${links[1]!.split('/').pop()}`, { method: 'POST' })
  t.same(verified.body, { message: 'Account verified successfully.' })
  t.equal((await call(`${api}/members/login`, { method: 'POST', json: { email: 'new@app.test', password: 'member-pass' } })).status, 200)

  // A collection's own HTML and subject.
  await call(`${api}/staff`, { method: 'POST', json: { email: 'st@app.test', password: 'staff-pass' } })
  await call(`${api}/staff/forgot-password`, { method: 'POST', json: { email: 'st@app.test' } })
  const custom = await smtp.next()
  t.equal(custom.subject, 'Reset for st@app.test')
  t.match(String(custom.html), /^<p>Hi st@app\.test<\/p><a href="https:\/\/front\.test\/reset\?t=[0-9a-f]{40}">reset<\/a>\s*$/)
  const staffToken = /t=([0-9a-f]{40})/.exec(String(custom.html))![1]
  t.equal((await call(`${api}/staff/reset-password`, { method: 'POST', json: { token: staffToken, password: 'staff-new' } })).status, 200)
})

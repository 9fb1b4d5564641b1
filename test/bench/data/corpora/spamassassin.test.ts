/** Mails as documents: headers, the text of a MIME message (HTML turned into text), attachments counted. */
import t from 'tap'
import { mailDocument } from '../../../../bench/data/corpora/spamassassin.js'

const MAIL = [
  'From: "Ada Lovelace" <ada@example.org>',
  'To: bob@example.org',
  'Subject: Engine   notes',
  'Date: Thu, 22 Aug 2002 18:26:25 +0700',
  'MIME-Version: 1.0',
  'Content-Type: multipart/mixed; boundary="XX"',
  '',
  '--XX',
  'Content-Type: text/html; charset=us-ascii',
  '',
  '<html><head><style>p { color: red }</style></head><body><p>The <b>analytical</b> engine</p>\n<p>weaves algebraic patterns.</p></body></html>',
  '--XX',
  'Content-Type: application/octet-stream; name="table.bin"',
  'Content-Transfer-Encoding: base64',
  'Content-Disposition: attachment; filename="table.bin"',
  '',
  'AAECAwQ=',
  '--XX--',
  '',
].join('\r\n')

t.test('a multipart mail with an HTML body and an attachment', async (t) => {
  const raw = Buffer.from(MAIL)
  const doc = await mailDocument(3, 'spam-2', raw)
  t.equal(doc.id, 3)
  t.equal(doc.subject, 'Engine notes')
  t.equal(doc.from, '"Ada Lovelace" <ada@example.org>')
  t.match(doc.body, /^The analytical engine\s?weaves algebraic patterns\.$/i)
  t.notMatch(doc.body, /color|<p>|AAECAwQ/, 'no style, no tags, no attachment')
  t.same([doc.group, doc.spam, doc.year, doc.attachments, doc.bytes], ['spam-2', true, 2002, 1, raw.length])
})

t.test('a plain ham mail without a date', async (t) => {
  const doc = await mailDocument(0, 'easy-ham-1', Buffer.from('From: kre@munnari.OZ.AU\nSubject: Re: New Sequences Window\n\nFor me it is very\n   repeatable.\n'))
  t.same([doc.body, doc.spam, doc.year, doc.attachments], ['For me it is very repeatable.', false, null, 0])
})

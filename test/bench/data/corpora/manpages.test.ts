/** Man pages as documents: rendered by the real groff, header and footer dropped, the NAME line as the title. */
import t from 'tap'
import { pageDocument, renderPage } from '../../../../bench/data/corpora/manpages.js'

const PAGE = `.TH FROB 3 2024-01-01 "Tessera" "Library Functions Manual"
.SH NAME
frob, unfrob \\- frobnicate a buffer
.SH SYNOPSIS
.B int frob(char *buf);
.SH DESCRIPTION
The
.BR frob ()
function frobnicates
.IR buf ,
in place.
`

t.test('a page rendered by groff becomes its name, section, title and body', async (t) => {
  const text = await renderPage(Buffer.from(PAGE))
  t.match(text, /FROB\(3\)/, 'the header line is there before')
  const doc = pageDocument(4, '/usr/share/man/man3/frob.3.gz', 'manpages-dev', text)!
  t.same({ ...doc, body: undefined }, { id: 4, name: 'frob', section: '3', title: 'frob, unfrob - frobnicate a buffer', body: undefined, package: 'manpages-dev', words: doc.body.split(' ').length })
  t.equal(doc.body, 'NAME frob, unfrob - frobnicate a buffer SYNOPSIS int frob(char *buf); DESCRIPTION The frob() function frobnicates buf, in place.')
  t.notMatch(doc.body, /FROB\(3\)|Tessera/, 'header and footer dropped')
})

t.test('sections with a suffix, and files that are not pages', async (t) => {
  const text = 'HEAD\n\nNAME\n       size_t - an unsigned integer type\n\nFOOT\n'
  t.equal(pageDocument(0, '/usr/share/man/man3/size_t.3type.gz', 'manpages-dev', text)?.section, '3type')
  t.equal(pageDocument(0, '/usr/share/man/man3/README', 'manpages-dev', text), null)
  t.equal(pageDocument(0, '/usr/share/man/man3/empty.3.gz', 'manpages-dev', 'HEAD\n\nFOOT\n'), null)
})

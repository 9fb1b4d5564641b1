/**
 * The man-pages corpus: the Linux man pages of Debian's `manpages` and `manpages-dev` (system calls, library
 * functions, file formats, overviews), rendered to plain text by groff as `man` would show them. Links and `.so`
 * redirections are left out: each page once. Long technical prose with code words (`O_CREAT`, `pthread_create`).
 */
import { execFileSync, spawn } from 'node:child_process'
import { lstatSync, readFileSync } from 'node:fs'
import { basename } from 'node:path'
import { gunzipSync } from 'node:zlib'

export interface ManPage {
  id: number
  /** The page's name (`open`). */
  name: string
  /** Its section (`2`, `3`, `3type`, `7`, …). */
  section: string
  /** The NAME line (`open, openat, creat - open and possibly create a file`). */
  title: string
  /** The rendered page without its header and footer lines, whitespace collapsed. */
  body: string
  /** The Debian package it comes from. */
  package: string
  /** Words in the body. */
  words: number
}

/** The Debian packages whose pages make the corpus. */
export const MAN_PACKAGES = ['manpages', 'manpages-dev']

/** Text of a page as groff renders it (UTF-8 output without escape sequences, no hyphenation, wide lines). */
export function renderPage(source: Buffer): Promise<string> {
  return new Promise((resolve, reject) => {
    const groff = spawn('groff', ['-k', '-t', '-man', '-Tutf8', '-P-cbou', '-rLL=160n', '-rHY=0'], { stdio: ['pipe', 'pipe', 'ignore'] })
    const out: Buffer[] = []
    groff.stdout.on('data', (d: Buffer) => out.push(d))
    groff.on('error', reject)
    groff.on('close', (code) => (code === 0 ? resolve(Buffer.concat(out).toString('utf8')) : reject(new Error(`groff exited with ${code}`))))
    groff.stdin.end(source)
  })
}

/** A rendered page as a document: the NAME section's text as its title, everything but the header and footer as its body. */
export function pageDocument(id: number, file: string, pkg: string, text: string): ManPage | null {
  const m = /^(.+)\.([0-9][a-z]*)(?:\.gz)?$/.exec(basename(file))
  if (!m) return null
  const lines = text.split('\n')
  while (lines.length > 0 && lines[0]!.trim() === '') lines.shift()
  while (lines.length > 0 && lines[lines.length - 1]!.trim() === '') lines.pop()
  // The first line is the header (`open(2)   System Calls Manual   open(2)`), the last the footer.
  const inner = lines.slice(1, -1)
  const nameAt = inner.findIndex((l) => /^NAME\s*$/.test(l))
  const title: string[] = []
  if (nameAt >= 0) for (const l of inner.slice(nameAt + 1)) { if (/^\S/.test(l)) break; title.push(l.trim()) }
  const body = inner.join('\n').replace(/\s+/g, ' ').trim()
  if (body === '') return null
  return { id, name: m[1]!, section: m[2]!, title: title.join(' ').replace(/\s+/g, ' ').trim(), body, package: pkg, words: body.split(' ').length }
}

/** The pages a package installed: regular files (not links) under /usr/share/man/manN/, no `.so` redirection. */
export function packagePages(pkg: string): string[] {
  const listed = execFileSync('dpkg', ['-L', pkg], { encoding: 'utf8' }).split('\n')
  return listed.filter((f) => /^\/usr\/share\/man\/man[0-9][^/]*\/[^/]+\.gz$/.test(f) && lstatSync(f).isFile())
}

/** Every page of MAN_PACKAGES, rendered two at a time, in package and file order. */
export async function readManPages(packages = MAN_PACKAGES, log: (line: string) => void = () => {}): Promise<ManPage[]> {
  const files = packages.flatMap((pkg) => packagePages(pkg).sort().map((file) => ({ pkg, file })))
  const pages: Array<ManPage | null> = new Array(files.length).fill(null)
  let next = 0
  let done = 0
  const worker = async () => {
    for (let i = next++; i < files.length; i = next++) {
      const { pkg, file } = files[i]!
      const source = gunzipSync(readFileSync(file))
      if (/^(?:\.\\".*\n)*\.so /.test(source.toString('latin1', 0, 4096))) continue
      pages[i] = pageDocument(0, file, pkg, await renderPage(source))
      if (++done % 250 === 0) log(`manpages: ${done} of ${files.length} pages rendered`)
    }
  }
  await Promise.all([worker(), worker()])
  return pages.filter((p): p is ManPage => p !== null).map((p, id) => ({ ...p, id }))
}

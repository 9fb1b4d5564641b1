/**
 * Sending mail: nodemailer over SMTP when `email.smtp` is configured; otherwise the mail is written to the log,
 * with the token it carries withheld (tokens never go to logs). A failed send is logged and does not fail the
 * operation: the user's record is already committed, and forgot-password must answer the same either way.
 */
import type { Transporter } from 'nodemailer'
import type { AuthLogger } from '../service.js'

export interface Mail {
  to: string
  subject: string
  html: string
  /** Values that must not be logged (the token in the link). */
  secrets: string[]
}

export class Mailer {
  /** Opened on the first mail: nodemailer takes ~0.3 s to load, which a start-up should not pay for mail it may never send. */
  private transport: Promise<Transporter> | null = null
  private readonly from: string

  constructor(private readonly config: { smtp: string; fromName: string; fromAddress: string } | null, private readonly log: AuthLogger) {
    this.from = config ? `"${config.fromName}" <${config.fromAddress}>` : ''
  }

  private openTransport(smtp: string): Promise<Transporter> {
    return (this.transport ??= import('nodemailer').then((nodemailer) => nodemailer.default.createTransport(smtp)))
  }

  async send(mail: Mail): Promise<void> {
    if (!this.config) {
      // One log line per mail.
      this.log.info(`email not sent (no SMTP configured): to ${mail.to}, subject "${mail.subject}": ${withhold(mail.html, mail.secrets).replace(/\s*\n\s*/g, ' ')}`)
      return
    }
    try {
      const transport = await this.openTransport(this.config.smtp)
      await transport.sendMail({ from: this.from, to: mail.to, subject: mail.subject, html: mail.html })
    } catch (err) {
      this.log.error(`email to ${mail.to} ("${mail.subject}") failed: ${withhold((err as Error).message, mail.secrets)}`)
    }
  }

  close(): void {
    void this.transport?.then((transport) => transport.close(), () => undefined)
  }
}

function withhold(text: string, secrets: string[]): string {
  let out = text
  for (const secret of secrets) if (secret) out = out.split(secret).join('[token withheld]')
  return out
}

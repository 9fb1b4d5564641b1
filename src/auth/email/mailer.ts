/**
 * Sending mail: nodemailer over SMTP when `email.smtp` is configured; otherwise the mail is written to the log,
 * with the token it carries withheld (tokens never go to logs). A failed send is logged and does not fail the
 * operation: the user's record is already committed, and forgot-password must answer the same either way.
 */
import nodemailer, { type Transporter } from 'nodemailer'
import type { AuthLogger } from '../service.js'

export interface Mail {
  to: string
  subject: string
  html: string
  /** Values that must not be logged (the token in the link). */
  secrets: string[]
}

export class Mailer {
  private readonly transport: Transporter | null
  private readonly from: string

  constructor(config: { smtp: string; fromName: string; fromAddress: string } | null, private readonly log: AuthLogger) {
    this.transport = config ? nodemailer.createTransport(config.smtp) : null
    this.from = config ? `"${config.fromName}" <${config.fromAddress}>` : ''
  }

  async send(mail: Mail): Promise<void> {
    if (!this.transport) {
      // One log line per mail.
      this.log.info(`email not sent (no SMTP configured): to ${mail.to}, subject "${mail.subject}": ${withhold(mail.html, mail.secrets).replace(/\s*\n\s*/g, ' ')}`)
      return
    }
    try {
      await this.transport.sendMail({ from: this.from, to: mail.to, subject: mail.subject, html: mail.html })
    } catch (err) {
      this.log.error(`email to ${mail.to} ("${mail.subject}") failed: ${withhold((err as Error).message, mail.secrets)}`)
    }
  }

  close(): void {
    this.transport?.close()
  }
}

function withhold(text: string, secrets: string[]): string {
  let out = text
  for (const secret of secrets) if (secret) out = out.split(secret).join('[token withheld]')
  return out
}

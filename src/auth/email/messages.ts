/**
 * The reset-password and verification emails, as Payload writes them: the link leads to the admin panel
 * (`/admin/reset/<token>`, `/admin/<slug>/verify/<token>`) under `serverURL`, or under the request's own origin
 * when no `serverURL` is configured; a collection may replace the HTML and subject.
 */
import { MESSAGES } from '../messages.js'
import type { EmailTemplates, EmailTemplateArgs } from '../config/types.js'
import type { Mail } from './mailer.js'

async function render(templates: EmailTemplates, args: EmailTemplateArgs, html: string, subject: string): Promise<{ html: string; subject: string }> {
  return {
    html: templates.generateEmailHTML ? await templates.generateEmailHTML(args) : html,
    subject: templates.generateEmailSubject ? await templates.generateEmailSubject(args) : subject,
  }
}

export async function resetPasswordMail(serverURL: string | null, templates: EmailTemplates, args: EmailTemplateArgs & { to: string }): Promise<Mail> {
  const url = `${serverURL ?? args.requestOrigin ?? ''}/admin/reset/${args.token}`
  const html = `${MESSAGES.youAreReceivingResetPassword}\n    <a href="${url}">${url}</a>\n    ${MESSAGES.youDidNotRequestPassword}`
  return { to: args.to, ...(await render(templates, args, html, MESSAGES.resetYourPassword)), secrets: [args.token] }
}

export async function verificationMail(serverURL: string | null, slug: string, templates: EmailTemplates, args: EmailTemplateArgs & { to: string }): Promise<Mail> {
  const url = `${serverURL ?? args.requestOrigin ?? ''}/admin/${slug}/verify/${args.token}`
  // Payload names the configured serverURL in the text (empty when unset) and the derived one in the link.
  const html = MESSAGES.newAccountCreated(serverURL ?? '', url)
  return { to: args.to, ...(await render(templates, args, html, MESSAGES.verifyYourEmail)), secrets: [args.token] }
}

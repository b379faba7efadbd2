/**
 * Texts of the mails Vigil sends: plain text with the link on its own line (so
 * any client shows it whole), plus a simple HTML part. Callers add the recipient.
 */
export interface MailContent {
  subject: string;
  text: string;
  html: string;
}

const PRODUCT = 'Vigil';

const escapeHtml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

/** One mail from its paragraphs around one call-to-action link. */
function compose(subject: string, greetingName: string, before: string[], action: string, link: string, after: string[]): MailContent {
  const greeting = greetingName.trim() ? `Hello ${greetingName.trim()},` : 'Hello,';
  const text = [
    greeting,
    '',
    ...before.flatMap((p) => [p, '']),
    `${action}:`,
    link,
    '',
    ...after.flatMap((p) => [p, '']),
    `— The ${PRODUCT} team`,
  ].join('\n');
  const para = (p: string) => `<p>${escapeHtml(p)}</p>`;
  const href = escapeHtml(link);
  const html = [
    '<!doctype html><html><body style="font-family: Arial, sans-serif; color: #1f2933; line-height: 1.5">',
    para(greeting),
    ...before.map(para),
    `<p><a href="${href}" style="display: inline-block; padding: 10px 18px; background: #1668dc; color: #ffffff; text-decoration: none; border-radius: 6px">${escapeHtml(action)}</a></p>`,
    `<p style="font-size: 13px; color: #52606d">Or open this link:<br>${href}</p>`,
    ...after.map(para),
    `<p>— The ${PRODUCT} team</p>`,
    '</body></html>',
  ].join('\n');
  return { subject, text, html };
}

export function verificationMail(opts: { name: string; link: string }): MailContent {
  return compose(
    `Verify your ${PRODUCT} email address`,
    opts.name,
    [`Thanks for signing up for ${PRODUCT}. Please confirm that this is your email address.`],
    'Verify your email',
    opts.link,
    ['The link works once and expires in 24 hours. If you did not sign up, you can ignore this mail.'],
  );
}

export function passwordResetMail(opts: { name: string; link: string }): MailContent {
  return compose(
    `Reset your ${PRODUCT} password`,
    opts.name,
    [`Someone (hopefully you) asked to reset the password of your ${PRODUCT} account.`],
    'Choose a new password',
    opts.link,
    ['The link works once and expires in 1 hour. If you did not ask for it, you can ignore this mail; your password stays the same.'],
  );
}

export function invitationMail(opts: { name: string; link: string; tenantName: string }): MailContent {
  const where = opts.tenantName.trim() ? `${opts.tenantName.trim()} on ${PRODUCT}` : PRODUCT;
  return compose(
    `You are invited to ${where}`,
    opts.name,
    [`An account has been created for you on ${where}. Choose a password to sign in.`],
    'Choose your password',
    opts.link,
    ['The link works once and expires in 72 hours. Ask your administrator for a new invitation if it has expired.'],
  );
}

/** Link of a mailed token: `{PUBLIC_URL}/auth/<page>?token=...` (docs/decisions.md 21). */
export const tokenLink = (publicUrl: string, page: 'verify-email' | 'password-confirmation', token: string) =>
  `${publicUrl}/auth/${page}?token=${encodeURIComponent(token)}`;

import { AUTH_MSG, MSG, looksLikeEmail, passwordProblem } from '@vigil/contracts';
import { allTenants, inScope } from '../../db/scope.ts';
import type { AppDeps } from '../../deps.ts';
import { badRequest, conflict } from '../../http/errors.ts';
import { passwordResetMail, tokenLink, verificationMail, type MailContent } from '../../mail/templates.ts';
import { consumeOneTimeToken, createOneTimeToken } from '../../security/one-time-tokens.repository.ts';
import { hashPassword } from '../../security/passwords.ts';
import { findAccountByEmail, findAccountById, insertUser, isActive, markEmailVerified, updateUser } from './auth.repository.ts';
import { revokeUserSessions } from './sessions.ts';
import { accountKey, clearFailures } from './throttle.ts';

/** Throws 400 with the policy's message when a new password breaks it (8..128, not common). */
export function assertPasswordPolicy(password: string): void {
  const problem = passwordProblem(password);
  if (problem) throw badRequest(problem);
}

/** "Ada  Lovelace " -> "Ada Lovelace": the stored name is first and last joined by one space. */
export const joinName = (...parts: (string | undefined)[]) =>
  parts
    .map((p) => (p ?? '').trim())
    .filter(Boolean)
    .join(' ')
    .replace(/\s+/g, ' ');

const isUniqueViolation = (err: unknown): boolean => {
  const e = err as { code?: string; cause?: { code?: string } };
  return e?.code === '23505' || e?.cause?.code === '23505';
};

/** Sends after commit; a mail failure is logged, not answered (the account change already happened). */
async function sendMail(deps: AppDeps, to: string, content: MailContent, userId: number): Promise<void> {
  try {
    await deps.mailer.send({ to, ...content });
  } catch (err) {
    deps.log.error({ userId, subject: content.subject, err: (err as Error).message }, 'mail could not be sent');
  }
}

export interface RegisterInput {
  name?: string;
  firstName?: string;
  lastName?: string;
  email: string;
  phone: string;
  password: string;
}

/** Sign-up: a user with no tenant and no roles, and a verification mail (24 hours). */
export async function register(deps: AppDeps, input: RegisterInput): Promise<{ id: number; email: string; msg: string }> {
  const name = input.name?.trim() ? joinName(input.name) : joinName(input.firstName, input.lastName);
  if (!looksLikeEmail(input.email)) throw badRequest(AUTH_MSG.emailInvalid);
  assertPasswordPolicy(input.password);
  const passwordHash = await hashPassword(input.password);
  const now = deps.clock.now();
  const { id, token } = await inScope(deps.database.db, allTenants, async (tx) => {
    if (await findAccountByEmail(tx, input.email)) throw conflict(AUTH_MSG.emailInUse);
    const userId = await insertUser(tx, { email: input.email, name, phone: input.phone.trim(), passwordHash, now });
    return { id: userId, token: await createOneTimeToken(tx, userId, 'verify', now) };
  }).catch((err: unknown) => {
    // Two sign-ups with the same email at once: the unique index decides.
    if (isUniqueViolation(err)) throw conflict(AUTH_MSG.emailInUse);
    throw err;
  });
  deps.log.info({ userId: id }, 'account registered');
  await sendMail(deps, input.email, verificationMail({ name, link: tokenLink(deps.config.publicUrl, 'verify-email', token) }), id);
  return { id, email: input.email, msg: MSG.accountCreated };
}

/** Marks the email verified with the mailed single-use token. */
export async function verifyEmail(deps: AppDeps, token: string): Promise<void> {
  const now = deps.clock.now();
  const userId = await inScope(deps.database.db, allTenants, async (tx) => {
    const consumed = await consumeOneTimeToken(tx, token, ['verify'], now);
    if (consumed) await markEmailVerified(tx, consumed.userId, now);
    return consumed?.userId ?? null;
  });
  if (userId === null) throw badRequest(AUTH_MSG.verifyLinkInvalid);
  deps.log.info({ userId }, 'email verified');
}

/**
 * Mails a reset link (1 hour) when the account exists and may sign in. The answer is
 * the same either way, and the mail is sent after the answer so the timing does not
 * tell either (no account oracle).
 */
export async function requestPasswordReset(deps: AppDeps, email: string): Promise<void> {
  const now = deps.clock.now();
  const target = await inScope(deps.database.db, allTenants, async (tx) => {
    const account = await findAccountByEmail(tx, email);
    if (!account || !isActive(account)) return null;
    return { account, token: await createOneTimeToken(tx, account.id, 'reset', now) };
  });
  if (!target) {
    deps.log.info('password reset asked for an unknown or inactive account');
    return;
  }
  deps.log.info({ userId: target.account.id }, 'password reset mailed');
  const content = passwordResetMail({
    name: target.account.name,
    link: tokenLink(deps.config.publicUrl, 'password-confirmation', target.token),
  });
  void sendMail(deps, target.account.email, content, target.account.id);
}

/**
 * Sets a password with a reset or invitation token. The mailed link proves the
 * address, so the email becomes verified; every session of the user ends.
 */
export async function confirmPassword(deps: AppDeps, token: string, newPassword: string): Promise<void> {
  // The policy is checked before the token is used up, so a rejected password can be retried.
  assertPasswordPolicy(newPassword);
  const passwordHash = await hashPassword(newPassword);
  const now = deps.clock.now();
  await inScope(deps.database.db, allTenants, async (tx) => {
    const consumed = await consumeOneTimeToken(tx, token, ['reset', 'invite'], now);
    const account = consumed ? await findAccountById(tx, consumed.userId) : null;
    if (!consumed || !account || account.deactivatedAt) throw badRequest(AUTH_MSG.resetLinkInvalid);
    await updateUser(tx, account.id, { passwordHash }, now);
    await markEmailVerified(tx, account.id, now);
    await revokeUserSessions(deps.bus, tx, account.id, now);
    // Whoever holds the mailed link may sign in right away, even after failed attempts.
    await clearFailures(tx, accountKey(account.email));
    deps.log.info({ userId: account.id, purpose: consumed.purpose }, 'password set from mailed link');
  });
}

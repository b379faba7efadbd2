import { z } from 'zod';
import { endpoint } from './endpoint.ts';
import { dataOf } from './envelope.ts';
import { ROLES } from './enums.ts';
import { MSG } from './messages.ts';

const TAG = 'auth';

/** Texts of the auth flows that the product leaves open (the product's own texts live in MSG). */
export const AUTH_MSG = {
  emailInUse: 'An account with this email already exists.',
  emailInvalid: 'Please enter a valid email address.',
  passwordTooShort: 'Password must be at least 8 characters',
  passwordTooLong: 'Password must be at most 128 characters',
  passwordCommon: 'This password is too common. Please choose a less common one.',
  currentPasswordIncorrect: 'Current password is incorrect.',
  passwordIncorrect: 'Password is incorrect.',
  emailNotYours: 'The email does not match your account.',
  resetSent: 'If an account exists for this email, a password reset link has been sent.',
  emailVerified: 'Email verified successfully.',
  verifyLinkInvalid: 'This verification link is invalid or has expired.',
  resetLinkInvalid: 'This link is invalid or has expired. Please request a new one.',
  accountDeleted: 'Your account has been deleted.',
  loggedOut: 'You have been logged out.',
  tooManyAttempts: (wait: string) => `Too many sign-in attempts. Try again in ${wait}.`,
} as const;

/**
 * A small blocklist of the most common passwords of 8+ characters (docs/decisions.md 39, rule 5);
 * compared case-insensitively. No composition rules.
 */
export const COMMON_PASSWORDS: ReadonlySet<string> = new Set([
  'password',
  'password1',
  'password12',
  'password123',
  'password1234',
  'passw0rd',
  'p@ssw0rd',
  'p@ssword',
  '12345678',
  '123456789',
  '1234567890',
  '12341234',
  '11111111',
  '00000000',
  '87654321',
  '88888888',
  '123123123',
  '1q2w3e4r',
  '1q2w3e4r5t',
  'qwertyuiop',
  'qwerty123',
  'qwerty12',
  'qwertyui',
  'asdfghjkl',
  'asdfasdf',
  'zxcvbnm1',
  'iloveyou',
  'iloveyou1',
  'sunshine',
  'princess',
  'football',
  'baseball',
  'welcome1',
  'welcome123',
  'abc12345',
  'abcd1234',
  'letmein1',
  'trustno1',
  'superman',
  'starwars',
  'whatever',
  'dragon12',
  'monkey123',
  'master123',
  'admin123',
  'administrator',
  'changeme',
  'default1',
  'qazwsxedc',
  '1qaz2wsx',
  'aa123456',
  'vigil123',
  'vigilvigil',
]);

/**
 * The password policy (docs/decisions.md 39, rule 5): 8..128 characters, not on the blocklist, no
 * composition rules. Returns the problem's message, or null. The server applies it after the
 * schema (so the message is answered verbatim); the web app may use it in its forms.
 */
export function passwordProblem(password: string): string | null {
  if (password.length < 8) return AUTH_MSG.passwordTooShort;
  if (password.length > 128) return AUTH_MSG.passwordTooLong;
  if (COMMON_PASSWORDS.has(password.toLowerCase())) return AUTH_MSG.passwordCommon;
  return null;
}

/** Sign-up's loose email check (the product shows no format rule; a mail must still be deliverable). */
export const looksLikeEmail = (email: string) => /^[^\s@]+@[^\s@]+$/.test(email);

/** A new password in a request: required with the product's message; the policy is checked by the server. */
export const newPasswordField = (requiredMsg: string = MSG.password) =>
  z
    .string({ error: requiredMsg })
    .min(1, requiredMsg)
    .max(4096, AUTH_MSG.passwordTooLong)
    .describe('8..128 characters, not a common password');

/** A password being checked against the stored hash (any length the form allows). */
const givenPassword = (msg: string) => z.string({ error: msg }).min(1, msg).max(4096, MSG.invalidCredentials);

const text = (msg: string, max = 200) => z.string({ error: msg }).trim().min(1, msg).max(max, `at most ${max} characters`);
const loginEmail = z.string({ error: MSG.email }).trim().min(1, MSG.email).max(254, AUTH_MSG.emailInvalid).toLowerCase();
const opaqueToken = (msg: string) => z.string({ error: msg }).trim().min(1, msg).max(512, msg);

/**
 * Sign-up. The web client sends firstName and lastName combined as `name`; a client
 * may also send firstName and lastName. Without a name, the missing parts fail with the
 * product's messages, in form order (null makes the optional field report its message).
 */
export const registerBody = z.preprocess(
  (input) => {
    if (!input || typeof input !== 'object' || Array.isArray(input)) return input;
    const body = { ...(input as Record<string, unknown>) };
    const hasName = typeof body.name === 'string' && body.name.trim() !== '';
    if (!hasName) {
      body.firstName ??= null;
      body.lastName ??= null;
    }
    return body;
  },
  z
    .strictObject({
      name: z.string({ error: MSG.fullName }).trim().max(200, 'at most 200 characters').optional(),
      firstName: text(MSG.firstName, 100).optional(),
      lastName: text(MSG.lastName, 100).optional(),
      email: loginEmail,
      phone: text(MSG.phone, 50),
      password: newPasswordField(MSG.password),
      confirmPassword: z.string({ error: MSG.confirmPassword }).optional(),
    })
    .refine((b) => b.confirmPassword === undefined || b.confirmPassword === b.password, {
      message: MSG.passwordsMatchSignup,
      path: ['confirmPassword'],
    }),
);

export const tokenPair = z.object({ accessToken: z.string(), refreshToken: z.string() });
export type TokenPairDto = z.infer<typeof tokenPair>;

/**
 * Refresh and logout take the token in the body or, from the web app, in the httpOnly
 * cookie; the body may then be `{}` or absent (a request without content type).
 */
const refreshBody = z.strictObject({ refreshToken: z.string().max(512).optional() }).nullish();

export const profile = z.object({
  id: z.number().int(),
  name: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  phone: z.string(),
  roles: z.array(z.enum(ROLES)),
  tenantId: z.number().int().describe('-1 when the user has no tenant yet'),
  tenantName: z.string(),
  /** The tenant's IANA time zone (the one its days, reports and recurring maintenance follow); 'UTC' without a tenant. */
  tenantTimezone: z.string(),
  emailVerified: z.boolean(),
});
export type Profile = z.infer<typeof profile>;

const message = z.object({ ok: z.literal(true), msg: z.string() });

export const authEndpoints = {
  register: endpoint({
    method: 'POST',
    path: '/v0/auth/register',
    summary: 'Sign up: a user with no tenant and no roles; mails a verification link',
    tag: TAG,
    body: registerBody,
    response: dataOf(z.object({ id: z.number().int(), email: z.string(), msg: z.string() })),
    status: 201,
  }),
  login: endpoint({
    method: 'POST',
    path: '/v0/auth/login',
    summary: 'Sign in; also sets the refresh token as an httpOnly cookie scoped to /v0/auth',
    tag: TAG,
    body: z.strictObject({ email: loginEmail, password: givenPassword(MSG.password) }),
    response: dataOf(tokenPair),
  }),
  refresh: endpoint({
    method: 'POST',
    path: '/v0/auth/refresh',
    summary: 'Rotates the refresh token (body or cookie) and returns a new pair',
    tag: TAG,
    body: refreshBody,
    response: dataOf(tokenPair),
  }),
  logout: endpoint({
    method: 'POST',
    path: '/v0/auth/logout',
    summary: 'Revokes the refresh token family (body or cookie) and clears the cookie',
    tag: TAG,
    body: refreshBody,
    response: dataOf(z.object({ ok: z.literal(true) })),
  }),
  changePassword: endpoint({
    method: 'POST',
    path: '/v0/auth/changePassword',
    summary: "Changes the caller's password; ends every other session and returns fresh tokens",
    tag: TAG,
    body: z
      .strictObject({
        email: loginEmail,
        // The product's change-password form: current, new and confirm non-blank, generic message.
        currentPassword: givenPassword(MSG.required),
        newPassword: newPasswordField(MSG.required),
        confirmPassword: z.string({ error: MSG.required }).min(1, MSG.required),
      })
      .refine((b) => b.confirmPassword === b.newPassword, { message: MSG.passwordsMatch, path: ['confirmPassword'] }),
    response: dataOf(z.object({ msg: z.string(), accessToken: z.string(), refreshToken: z.string() })),
  }),
  verifyEmail: endpoint({
    method: 'POST',
    path: '/v0/auth/verify-email',
    summary: 'Marks the email verified with the mailed single-use token (24 hours)',
    tag: TAG,
    body: z.strictObject({ token: opaqueToken(AUTH_MSG.verifyLinkInvalid) }),
    response: dataOf(message),
  }),
  passwordReset: endpoint({
    method: 'POST',
    path: '/v0/auth/password-reset',
    summary: 'Mails a password reset link when the account exists (always 200)',
    tag: TAG,
    body: z.strictObject({ email: loginEmail }),
    response: dataOf(message),
  }),
  passwordConfirmation: endpoint({
    method: 'POST',
    path: '/v0/auth/password-confirmation',
    summary: 'Sets the password with a reset (1 hour) or invitation (72 hours) token',
    tag: TAG,
    body: z
      .strictObject({
        token: opaqueToken(AUTH_MSG.resetLinkInvalid),
        newPassword: newPasswordField(MSG.password),
        confirmPassword: z.string({ error: MSG.confirmPassword }).optional(),
      })
      .refine((b) => b.confirmPassword === undefined || b.confirmPassword === b.newPassword, {
        message: MSG.passwordsMatch,
        path: ['confirmPassword'],
      }),
    response: dataOf(message),
  }),
  accountDelete: endpoint({
    method: 'POST',
    path: '/v0/auth/account-delete',
    summary: "Deactivates the caller's account after a password check",
    tag: TAG,
    body: z.strictObject({ password: givenPassword(MSG.password) }),
    response: dataOf(message),
  }),
  me: endpoint({
    method: 'GET',
    path: '/v0/auth/me',
    summary: "The caller's profile",
    tag: TAG,
    response: dataOf(profile),
  }),
  updateMe: endpoint({
    method: 'PATCH',
    path: '/v0/auth/me',
    summary: "Updates the caller's name and phone",
    tag: TAG,
    body: z.strictObject({
      name: text(MSG.fullName).optional(),
      firstName: text(MSG.firstName, 100).optional(),
      lastName: text(MSG.lastName, 100).optional(),
      phone: text(MSG.phone, 50).optional(),
    }),
    response: dataOf(profile),
  }),
};

import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../../config.ts';
import { REFRESH_TOKEN_TTL_MS } from './sessions.ts';

/**
 * The refresh token as an httpOnly, SameSite=Strict cookie scoped to /v0/auth
 * (docs/decisions.md 20): script cannot read it, other sites cannot send it, and only
 * refresh and logout ever receive it.
 */
export const REFRESH_COOKIE = 'vigil_refresh';
const COOKIE_PATH = '/v0/auth';

const cookieOptions = (config: Config) => ({
  httpOnly: true,
  sameSite: 'strict' as const,
  path: COOKIE_PATH,
  secure: config.publicUrl.startsWith('https://'),
});

export function setRefreshCookie(reply: FastifyReply, config: Config, token: string): void {
  reply.setCookie(REFRESH_COOKIE, token, { ...cookieOptions(config), maxAge: Math.floor(REFRESH_TOKEN_TTL_MS / 1000) });
}

export function clearRefreshCookie(reply: FastifyReply, config: Config): void {
  reply.clearCookie(REFRESH_COOKIE, cookieOptions(config));
}

/** The body's token wins over the cookie (an API client states what it means). */
export function presentedRefreshToken(req: FastifyRequest, body: { refreshToken?: string } | null | undefined): string | undefined {
  const fromBody = body?.refreshToken?.trim();
  if (fromBody) return fromBody;
  const fromCookie = req.cookies?.[REFRESH_COOKIE];
  return fromCookie || undefined;
}

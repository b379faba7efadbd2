import { AUTH_MSG, MSG, authEndpoints as ep } from '@vigil/contracts';
import type { FastifyRequest } from 'fastify';
import type { AppDeps } from '../../deps.ts';
import { AppError, unauthorized } from '../../http/errors.ts';
import { route, type AppModule } from '../../http/route.ts';
import { confirmPassword, register, requestPasswordReset, verifyEmail } from './account.service.ts';
import { changePassword, deleteOwnAccount, getProfile, updateProfile } from './profile.service.ts';
import { clearRefreshCookie, presentedRefreshToken, setRefreshCookie } from './refresh-cookie.ts';
import { login, logout, refresh } from './sign-in.service.ts';

/**
 * Stricter per-IP limit for the unauthenticated calls that cost an argon2 hash or
 * send mail (applies when the global limiter is on; tests and benchmarks turn it off).
 * The limiter throws what the builder returns: an AppError answers our error model
 * with a clear message.
 */
const STRICT = {
  config: {
    rateLimit: {
      max: 30,
      timeWindow: 60_000,
      errorResponseBuilder: (_req: unknown, ctx: { ttl: number }) => {
        const seconds = Math.max(1, Math.ceil(ctx.ttl / 1000));
        return new AppError('RATE_LIMITED', `Too many requests. Try again in ${seconds} seconds.`, { 'retry-after': String(seconds) });
      },
    },
  },
};

/** The services log through the request's logger, so sign-in records carry the request id. */
const withRequestLog = (deps: AppDeps, req: FastifyRequest): AppDeps => ({ ...deps, log: req.log });

/** Accounts and sessions under /v0/auth (docs/decisions.md 20). */
export const authModule: AppModule = (app, deps) => {
  // The contracts give every body a schema, so `body` is defined (route() types bodies as optional).
  route(app, deps, ep.register, {
    permission: 'public',
    options: STRICT,
    handler: async ({ body, req }) => ({ data: await register(withRequestLog(deps, req), body) }),
  });

  route(app, deps, ep.login, {
    permission: 'public',
    options: STRICT,
    handler: async ({ body, req, reply }) => {
      const { accessToken, refreshToken } = await login(withRequestLog(deps, req), {
        email: body.email,
        password: body.password,
        ip: req.ip,
      });
      setRefreshCookie(reply, deps.config, refreshToken);
      return { data: { accessToken, refreshToken } };
    },
  });

  route(app, deps, ep.refresh, {
    permission: 'public',
    options: STRICT,
    handler: async ({ body, req, reply }) => {
      const token = presentedRefreshToken(req, body);
      if (!token) throw unauthorized();
      try {
        const pair = await refresh(withRequestLog(deps, req), token);
        setRefreshCookie(reply, deps.config, pair.refreshToken);
        return { data: pair };
      } catch (err) {
        // A dead cookie would be sent again on every refresh: drop it with the 401.
        clearRefreshCookie(reply, deps.config);
        throw err;
      }
    },
  });

  route(app, deps, ep.logout, {
    permission: 'public',
    handler: async ({ body, req, reply }) => {
      await logout(withRequestLog(deps, req), presentedRefreshToken(req, body));
      clearRefreshCookie(reply, deps.config);
      return { data: { ok: true as const } };
    },
  });

  route(app, deps, ep.changePassword, {
    permission: 'self',
    handler: async ({ body, principal, reply, req }) => {
      const result = await changePassword(withRequestLog(deps, req), principal, body);
      setRefreshCookie(reply, deps.config, result.refreshToken);
      return { data: result };
    },
  });

  route(app, deps, ep.verifyEmail, {
    permission: 'public',
    handler: async ({ body, req }) => {
      await verifyEmail(withRequestLog(deps, req), body.token);
      return { data: { ok: true as const, msg: AUTH_MSG.emailVerified } };
    },
  });

  route(app, deps, ep.passwordReset, {
    permission: 'public',
    options: STRICT,
    handler: async ({ body, req }) => {
      await requestPasswordReset(withRequestLog(deps, req), body.email);
      return { data: { ok: true as const, msg: AUTH_MSG.resetSent } };
    },
  });

  route(app, deps, ep.passwordConfirmation, {
    permission: 'public',
    options: STRICT,
    handler: async ({ body, req }) => {
      await confirmPassword(withRequestLog(deps, req), body.token, body.newPassword);
      return { data: { ok: true as const, msg: MSG.passwordUpdated } };
    },
  });

  route(app, deps, ep.accountDelete, {
    permission: 'self',
    handler: async ({ body, principal, reply, req }) => {
      await deleteOwnAccount(withRequestLog(deps, req), principal, body.password);
      clearRefreshCookie(reply, deps.config);
      return { data: { ok: true as const, msg: AUTH_MSG.accountDeleted } };
    },
  });

  route(app, deps, ep.me, {
    permission: 'self',
    handler: async ({ principal, req }) => ({ data: await getProfile(withRequestLog(deps, req), principal) }),
  });

  route(app, deps, ep.updateMe, {
    permission: 'self',
    handler: async ({ body, principal, req }) => ({ data: await updateProfile(withRequestLog(deps, req), principal, body) }),
  });
};

import { AUTH_MSG, MSG, authEndpoints as ep } from '@vigil/contracts';
import { unauthorized } from '../../http/errors.ts';
import { route } from '../../http/route.ts';
import type { AppModule } from '../index.ts';
import { confirmPassword, register, requestPasswordReset, verifyEmail } from './account.service.ts';
import { changePassword, deleteOwnAccount, getProfile, updateProfile } from './profile.service.ts';
import { clearRefreshCookie, presentedRefreshToken, setRefreshCookie } from './refresh-cookie.ts';
import { login, logout, refresh } from './sign-in.service.ts';

/**
 * Stricter per-IP limit for the unauthenticated calls that cost an argon2 hash or
 * send mail (applies when the global limiter is on; tests and benchmarks turn it off).
 */
const STRICT = { config: { rateLimit: { max: 30, timeWindow: 60_000 } } };

/** Accounts and sessions under /v0/auth (decisions.md §3). */
export const authModule: AppModule = (app, deps) => {
  // The contracts give every body a schema, so `body!` is defined (route() types bodies as optional).
  route(app, deps, ep.register, {
    permission: 'public',
    options: STRICT,
    handler: async ({ body }) => ({ data: await register(deps, body!) }),
  });

  route(app, deps, ep.login, {
    permission: 'public',
    options: STRICT,
    handler: async ({ body, req, reply }) => {
      const { accessToken, refreshToken } = await login(deps, { email: body!.email, password: body!.password, ip: req.ip });
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
        const pair = await refresh(deps, token);
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
      await logout(deps, presentedRefreshToken(req, body));
      clearRefreshCookie(reply, deps.config);
      return { data: { ok: true as const } };
    },
  });

  route(app, deps, ep.changePassword, {
    permission: 'self',
    handler: async ({ body, principal, reply }) => {
      const result = await changePassword(deps, principal, body!);
      setRefreshCookie(reply, deps.config, result.refreshToken);
      return { data: result };
    },
  });

  route(app, deps, ep.verifyEmail, {
    permission: 'public',
    handler: async ({ body }) => {
      await verifyEmail(deps, body!.token);
      return { data: { ok: true as const, msg: AUTH_MSG.emailVerified } };
    },
  });

  route(app, deps, ep.passwordReset, {
    permission: 'public',
    options: STRICT,
    handler: async ({ body }) => {
      await requestPasswordReset(deps, body!.email);
      return { data: { ok: true as const, msg: AUTH_MSG.resetSent } };
    },
  });

  route(app, deps, ep.passwordConfirmation, {
    permission: 'public',
    options: STRICT,
    handler: async ({ body }) => {
      await confirmPassword(deps, body!.token, body!.newPassword);
      return { data: { ok: true as const, msg: MSG.passwordUpdated } };
    },
  });

  route(app, deps, ep.accountDelete, {
    permission: 'self',
    handler: async ({ body, principal, reply }) => {
      await deleteOwnAccount(deps, principal, body!.password);
      clearRefreshCookie(reply, deps.config);
      return { data: { ok: true as const, msg: AUTH_MSG.accountDeleted } };
    },
  });

  route(app, deps, ep.me, {
    permission: 'self',
    handler: async ({ principal }) => ({ data: await getProfile(deps, principal) }),
  });

  route(app, deps, ep.updateMe, {
    permission: 'self',
    handler: async ({ body, principal }) => ({ data: await updateProfile(deps, principal, body!) }),
  });
};

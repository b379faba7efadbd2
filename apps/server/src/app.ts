import cookie from '@fastify/cookie';
import rateLimit from '@fastify/rate-limit';
import Fastify, { LogController, type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { fastifyTrustProxy } from './config.ts';
import type { AppDeps } from './deps.ts';
import { answerUnavailableWhileClosing } from './http/closing.ts';
import { registerErrorHandling } from './http/error-handler.ts';
import { AppError } from './http/errors.ts';
import { acceptEmptyJsonBodies } from './http/json-body.ts';
import { logRequests } from './http/request-log.ts';
import { securityHeaders } from './http/security-headers.ts';
import { reusingSharedAnswers } from './http/shared-serialization.ts';
import { registerOpenApi } from './http/openapi.ts';
import { registerWebApp } from './http/web-app.ts';
import { modules } from './modules/index.ts';

export interface BuildOptions {
  /** Where the built web app lives (tests may point elsewhere). */
  webDist?: string;
}

/** The one place where plugins and feature modules are wired. Every test builds the app through here. */
export async function buildApp(deps: AppDeps, opts: BuildOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: deps.log,
    bodyLimit: 1024 * 1024,
    requestTimeout: 30_000,
    connectionTimeout: 35_000,
    keepAliveTimeout: 72_000,
    trustProxy: fastifyTrustProxy(deps.config.trustProxy),
    genReqId: () => crypto.randomUUID(),
    // During a shutdown, answerUnavailableWhileClosing() answers in the API's error shape instead.
    return503OnClosing: false,
    // Replaced by logRequests(): routine webhook traffic would drown everything else at info.
    logController: new LogController({ disableRequestLogging: true }),
  });
  app.setValidatorCompiler(validatorCompiler);
  // Answers of shared read rounds are serialized once per round, not once per caller.
  app.setSerializerCompiler(reusingSharedAnswers(serializerCompiler));
  registerErrorHandling(app);
  answerUnavailableWhileClosing(app);
  acceptEmptyJsonBodies(app);
  logRequests(app);
  app.addHook('onRoute', (r) => {
    for (const method of [r.method].flat()) deps.mounted.push({ method, url: r.url });
  });
  app.addHook('onRequest', async (req, reply) => {
    reply.header('x-request-id', req.id);
  });

  securityHeaders(app);
  await app.register(cookie);
  if (deps.rateLimit) {
    await app.register(rateLimit, {
      global: true,
      max: deps.rateLimit.max,
      timeWindow: deps.rateLimit.timeWindow,
      // Signed webhooks are authenticated per message and come in bursts from a few device clouds.
      allowList: (req) => req.url.startsWith('/v0/webhooks/'),
      errorResponseBuilder: (_req, ctx) => {
        const seconds = Math.ceil(ctx.ttl / 1000);
        return new AppError('RATE_LIMITED', `Too many requests. Try again in ${seconds} seconds.`, { 'retry-after': String(seconds) });
      },
    });
  }
  await registerOpenApi(app);
  for (const register of modules) await register(app, deps);
  await registerWebApp(app, opts.webDist);
  return app;
}

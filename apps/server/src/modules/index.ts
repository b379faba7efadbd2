import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../deps.ts';
import { healthModule } from './health/health.routes.ts';

export type AppModule = (app: FastifyInstance, deps: AppDeps) => Promise<void> | void;

/** Feature modules in registration order. Each adds its routes through http/route.ts. */
export const modules: AppModule[] = [healthModule];

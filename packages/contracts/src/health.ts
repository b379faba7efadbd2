import { z } from 'zod';
import { endpoint } from './endpoint.ts';

export const healthEndpoints = {
  healthz: endpoint({
    method: 'GET',
    path: '/healthz',
    tag: 'health',
    summary: 'The process is up',
    response: z.object({ status: z.literal('ok') }),
  }),
  readyz: endpoint({
    method: 'GET',
    path: '/readyz',
    tag: 'health',
    summary: 'The database answers and live events flow; 503 UNAVAILABLE with error.checks while either is down or the server is stopping',
    response: z.object({
      status: z.literal('ok'),
      database: z.enum(['pglite', 'postgres']),
      /** Each dependency; the 503 answer carries the same object as `error.checks`. */
      checks: z.object({ database: z.literal('ok'), events: z.literal('ok') }),
    }),
  }),
};

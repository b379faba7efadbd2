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
    summary: 'The database answers',
    response: z.object({ status: z.literal('ok'), database: z.enum(['pglite', 'postgres']) }),
  }),
};

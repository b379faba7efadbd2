import swagger from '@fastify/swagger';
import { PRODUCT_NAME } from '@vigil/contracts';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';

/** OpenAPI 3 generated from the same zod schemas that validate requests; served at /v0/openapi.json. */
export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      info: {
        title: `${PRODUCT_NAME} API`,
        version: '0.1.0',
        description: 'Multi-tenant operations console for security-device service companies.',
      },
      components: { securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
    },
    transform: jsonSchemaTransform,
  });
  app.get('/v0/openapi.json', { schema: { hide: true } }, () => app.swagger());
}

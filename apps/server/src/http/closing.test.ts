import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { answerUnavailableWhileClosing } from './closing.ts';
import { registerErrorHandling } from './error-handler.ts';

describe('requests during a shutdown', () => {
  it('answer 503 UNAVAILABLE in the API error shape from the first moment, /readyz included', async () => {
    const app = Fastify({ return503OnClosing: false });
    registerErrorHandling(app);
    answerUnavailableWhileClosing(app);
    // Holds the shutdown in its first step (as the live streams' own preClose does) while requests come in.
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    let closingStarted!: () => void;
    const closingBegan = new Promise<void>((r) => (closingStarted = r));
    app.addHook('preClose', async () => {
      closingStarted();
      await released;
    });
    app.get('/readyz', () => ({ status: 'ok' }));
    app.get('/v0/api/portals', () => ({ data: [] }));
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    const before = await fetch(`http://127.0.0.1:${port}/readyz`);
    expect(before.status).toBe(200);

    const closed = app.close();
    await closingBegan;
    const ready = await fetch(`http://127.0.0.1:${port}/readyz`);
    const list = await fetch(`http://127.0.0.1:${port}/v0/api/portals`);
    release();
    await closed;

    expect(ready.status).toBe(503);
    expect(ready.headers.get('retry-after')).toBe('1');
    expect(((await ready.json()) as { error: unknown }).error).toMatchObject({
      code: 'UNAVAILABLE',
      msg: 'Not ready: the server is shutting down.',
      status: 'unavailable',
    });
    expect(list.status).toBe(503);
    expect(((await list.json()) as { error: unknown }).error).toMatchObject({
      code: 'UNAVAILABLE',
      msg: 'The server is shutting down. Try again shortly.',
    });
  });
});

import { describe, expect, it } from 'vitest';
import { ConfigError, fastifyTrustProxy, loadConfig } from './config.ts';

const base = { APP_SECRET: 'test-secret-test-secret-test-secret-0123', DATA_DIR: '/tmp/vigil-test-data' };
const load = (env: Record<string, string>) => loadConfig({ ...base, ...env });
const refusal = (env: Record<string, string>) => {
  try {
    load(env);
  } catch (err) {
    if (err instanceof ConfigError) return err.message;
    throw err;
  }
  throw new Error('the configuration was accepted');
};

describe('HOST', () => {
  it('listens on every address by default, or on the address given', () => {
    expect(load({}).host).toBe('0.0.0.0');
    expect(load({ HOST: '127.0.0.1' }).host).toBe('127.0.0.1');
    expect(load({ HOST: '::' }).host).toBe('::');
    expect(load({ HOST: 'localhost' }).host).toBe('localhost');
  });
  it('stops the start on a value that is no address, naming the variable', () => {
    expect(refusal({ HOST: 'http://0.0.0.0' })).toMatch(/^Invalid configuration:\n {2}HOST: /);
    expect(refusal({ HOST: '0.0.0.0:3000' })).toMatch(/HOST: /);
  });
});

describe('TRUST_PROXY', () => {
  it('is off by default, and takes a hop count, true/false or a list of addresses and CIDR ranges', () => {
    expect(load({}).trustProxy).toBe(false);
    expect(load({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(load({ TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(load({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(load({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(load({ TRUST_PROXY: '10.0.0.1, 192.168.0.0/16,::1' }).trustProxy).toEqual(['10.0.0.1', '192.168.0.0/16', '::1']);
  });
  it('stops the start on anything else, naming the variable', () => {
    for (const bad of ['yes', '-1', '1.5', 'proxy.example.com', '10.0.0.1,', '10.0.0.0/x']) {
      expect(refusal({ TRUST_PROXY: bad })).toMatch(/^Invalid configuration:\n {2}TRUST_PROXY: /);
    }
  });
});

describe('the sandbox payment provider in production', () => {
  it('is refused with NODE_ENV=production, with a message naming PAYMENTS and the way out', () => {
    const msg = refusal({ NODE_ENV: 'production' });
    expect(msg).toMatch(/^Invalid configuration:\n {2}PAYMENTS: the sandbox payment provider/);
    expect(msg).toContain('PAYMENTS_SANDBOX_IN_PRODUCTION=1');
    expect(refusal({ NODE_ENV: 'production', PAYMENTS: 'sandbox' })).toMatch(/PAYMENTS: /);
  });
  it('runs in production when asked for on purpose, with Stripe, and anywhere outside production', () => {
    expect(load({ NODE_ENV: 'production', PAYMENTS_SANDBOX_IN_PRODUCTION: '1' }).payments).toBe('sandbox');
    expect(load({ NODE_ENV: 'production', PAYMENTS: 'stripe', STRIPE_SECRET_KEY: 'sk_test_x' }).payments).toBe('stripe');
    expect(load({}).payments).toBe('sandbox');
    expect(load({ NODE_ENV: 'development' }).payments).toBe('sandbox');
    expect(refusal({ PAYMENTS_SANDBOX_IN_PRODUCTION: 'yes' })).toMatch(/PAYMENTS_SANDBOX_IN_PRODUCTION: /);
  });
});

describe('LOG_FORMAT', () => {
  it('is unset (decided by the terminal) unless json or pretty', () => {
    expect(load({}).logFormat).toBeUndefined();
    expect(load({ LOG_FORMAT: 'json' }).logFormat).toBe('json');
    expect(refusal({ LOG_FORMAT: 'text' })).toMatch(/LOG_FORMAT: /);
  });
});

describe('fastifyTrustProxy', () => {
  it('turns a hop count into the rule that trusts that many proxies from the socket', () => {
    const rule = fastifyTrustProxy(2) as (address: string, hop: number) => boolean;
    expect([0, 1, 2].map((hop) => rule('10.0.0.1', hop))).toEqual([true, true, false]);
    expect(fastifyTrustProxy(false)).toBe(false);
    expect(fastifyTrustProxy(['10.0.0.0/8'])).toEqual(['10.0.0.0/8']);
  });
});

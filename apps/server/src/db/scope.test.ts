import { describe, expect, it } from 'vitest';
import { allTenants, scopeSettings, tenantScope } from './scope.ts';

describe('scope settings', () => {
  it('sets the role, the tenant and the all-tenants flag for the transaction only', () => {
    expect(scopeSettings(tenantScope(42))).toBe(
      "set local role vigil_app; set local app.tenant_id = '42'; set local app.all_tenants = 'off'",
    );
    expect(scopeSettings(allTenants)).toBe("set local role vigil_app; set local app.tenant_id = ''; set local app.all_tenants = 'on'");
  });

  it('refuses a tenant id that is not a positive integer (the text is run as is)', () => {
    for (const bad of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, "1'; reset role; --" as unknown as number]) {
      expect(() => scopeSettings(tenantScope(bad))).toThrow(/invalid tenant id/);
    }
  });
});

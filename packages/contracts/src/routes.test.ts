import { describe, expect, it } from 'vitest';
import * as contracts from './index.ts';
import * as routes from './routes.ts';

const endpointGroups = Object.entries(contracts).filter(([name]) => name.endsWith('Endpoints')) as [
  string,
  Record<string, { method: string; path: string }>,
][];

describe('schema-free routes', () => {
  it('has one route group per endpoint group, with the same method and path for every endpoint', () => {
    expect(endpointGroups.length).toBeGreaterThan(10);
    for (const [name, group] of endpointGroups) {
      const routeName = name.replace(/Endpoints$/, 'Routes');
      const light = (routes as Record<string, unknown>)[routeName] as Record<string, { method: string; path: string }> | undefined;
      expect(light, routeName).toBeDefined();
      const full = Object.fromEntries(Object.entries(group).map(([k, e]) => [k, { method: e.method, path: e.path }]));
      expect(light, routeName).toEqual(full);
    }
  });

  it('has no route group without an endpoint group', () => {
    const lightNames = Object.keys(routes).filter((n) => n.endsWith('Routes'));
    expect(lightNames.sort()).toEqual(endpointGroups.map(([n]) => n.replace(/Endpoints$/, 'Routes')).sort());
  });

  it('encodes list state as JSON query parameters, leaving out an empty filter', () => {
    expect(routes.toListSearchParams({ range: [0, 10], sort: ['name', 'ASC'], filter: {} }).toString()).toBe(
      'range=%5B0%2C10%5D&sort=%5B%22name%22%2C%22ASC%22%5D',
    );
    expect(contracts.toListSearchParams).toBe(routes.toListSearchParams);
  });
});

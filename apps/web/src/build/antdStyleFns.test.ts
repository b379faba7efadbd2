import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { parseAst } from 'rolldown/parseAst';
import { describe, expect, it } from 'vitest';
import { EMPTY_STYLE_FN, emptyStyleFns } from './antdStyleFns.ts';

const run = (code: string) => emptyStyleFns(code, parseAst(code) as never);

describe('emptyStyleFns', () => {
  it("replaces the style function passed to antd's style hook builders, and nothing else", () => {
    const code = [
      "const genA = (token) => ({ [token.componentCls]: { color: 'red' } });",
      'export const prepareComponentToken = (token) => ({ padding: token.padding });',
      "export default genStyleHooks('A', (token) => { const t = mergeToken(token, {}); return [genA(t)]; }, prepareComponentToken, { unitless: { x: true } });",
      "export const Sub = genSubStyleComponent(['A', 'sub'], genA, prepareComponentToken);",
      "export const Hook = genComponentStyleHook('B', function (token) { return [genA(token)]; });",
      'export const other = somethingElse(genA, 1);',
    ].join('\n');
    const out = run(code);
    expect(out).toContain(`genStyleHooks('A', ${EMPTY_STYLE_FN}, prepareComponentToken, { unitless: { x: true } })`);
    expect(out).toContain(`genSubStyleComponent(['A', 'sub'], ${EMPTY_STYLE_FN}, prepareComponentToken)`);
    expect(out).toContain(`genComponentStyleHook('B', ${EMPTY_STYLE_FN})`);
    expect(out).toContain('somethingElse(genA, 1)');
    expect(out).toContain('export const prepareComponentToken = (token) => ({ padding: token.padding });');
  });

  it("empties the style functions of antd's real style modules and keeps their component tokens", () => {
    const require = createRequire(import.meta.url);
    for (const mod of ['antd/es/button/style/index.js', 'antd/es/form/style/index.js', 'antd/es/input/style/index.js']) {
      const code = readFileSync(require.resolve(mod), 'utf8');
      const out = run(code);
      expect(out).not.toBe(code);
      expect(out).toMatch(/genStyleHooks\((?:'\w+'|\[[^\]]*\]), \(\) => \[\], \w+/);
      expect(() => parseAst(out)).not.toThrow();
    }
  });
});

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { COMPONENT_CLASSES, dropComponentRules, dropServerScopes, keepComponentRules, unusedPrefixes } from './antdCss.ts';

describe('dropComponentRules', () => {
  it('drops the rules whose every selector names an unused component, keeps the rest verbatim and in order', () => {
    const css =
      '.ant-btn{color:red}.ant-upload{a:b}.ant-upload-list .ant-btn,.ant-btn-icon{c:d}' +
      '@media (max-width:575px){.ant-upload-wrapper{e:f}.ant-col-xs-1{g:h}}' +
      '@media print{.ant-upload{i:j}}@keyframes antUploadIn{0%{opacity:0}}' +
      '.ant-uploader{k:l}.ant-select-tree{m:n}.ant-select{o:p}.x[title="{.ant-upload}"]{q:r}';
    expect(dropComponentRules(css, ['upload', 'select-tree'])).toBe(
      '.ant-btn{color:red}.ant-btn-icon{c:d}' +
        '@media (max-width:575px){.ant-col-xs-1{g:h}}' +
        '@keyframes antUploadIn{0%{opacity:0}}' +
        '.ant-uploader{k:l}.ant-select{o:p}.x[title="{.ant-upload}"]{q:r}',
    );
  });

  it('keeps antd.css unchanged with nothing to drop, and drops only the listed components from it', () => {
    const require = createRequire(import.meta.url);
    const css = readFileSync(require.resolve('antd/dist/antd.css'), 'utf8');
    expect(dropComponentRules(css, [])).toBe(css);
    const trimmed = dropComponentRules(css, ['cascader', 'upload']);
    expect(trimmed.length).toBeLessThan(css.length * 0.97);
    expect(trimmed).not.toMatch(/\.ant-(cascader|upload)(?![a-zA-Z0-9_])[^{}]*\{/);
    for (const kept of ['.ant-btn{', '.ant-table-wrapper', '.ant-select-dropdown', '.ant-menu-item', '.ant-picker-dropdown'])
      expect(trimmed).toContain(kept);
  });
});

describe('keepComponentRules', () => {
  it('keeps the selectors all of whose antd classes belong to the listed components, in order', () => {
    const css =
      '.ant-btn{a:a}.ant-btn-primary,.ant-table .ant-btn{b:b}.ant-input-number{c:c}.ant-input-affix-wrapper{d:d}' +
      '@media (max-width:575px){.ant-col-xs-1{e:e}.ant-table{f:f}}@keyframes antZoomIn{0%{opacity:0}}.anticon{g:g}' +
      '.ant-form-item .ant-select{h:h}.x[title=".ant-table"]{i:i}';
    expect(keepComponentRules(css, ['btn', 'input', 'col', 'form'], ['input-number'])).toBe(
      '.ant-btn{a:a}.ant-btn-primary{b:b}.ant-input-affix-wrapper{d:d}' +
        '@media (max-width:575px){.ant-col-xs-1{e:e}}@keyframes antZoomIn{0%{opacity:0}}.anticon{g:g}' +
        '.x[title=".ant-table"]{i:i}',
    );
  });

  it("cuts antd.css down to the listed components' rules", () => {
    const require = createRequire(import.meta.url);
    const css = readFileSync(require.resolve('antd/dist/antd.css'), 'utf8');
    const first = keepComponentRules(css, ['btn', 'wave', 'form', 'row', 'col', 'input', 'notification'], ['input-number']);
    expect(first.length).toBeLessThan(css.length * 0.3);
    for (const kept of ['.ant-btn{', '.ant-form-item{', '.ant-input-affix-wrapper', '.ant-notification-notice', '.ant-row{'])
      expect(first).toContain(kept);
    for (const dropped of ['.ant-table', '.ant-menu', '.ant-select', '.ant-input-number', '.ant-picker'])
      expect(first).not.toContain(dropped);
  });
});

describe('dropServerScopes', () => {
  it("drops the rules scoped to a server render's theme and keeps the client's and the rest", () => {
    const css =
      '.css-var-_R_0_{--ant-blue:#1677FF}.css-var-_R_0_.ant-btn,.css-var-_r_0_.ant-btn{--x:1}.ant-btn{a:b}@media print{.css-var-_R_1_{c:d}}';
    expect(dropServerScopes(css)).toBe('.css-var-_r_0_.ant-btn{--x:1}.ant-btn{a:b}');
  });
});

describe('unusedPrefixes', () => {
  it('lists the components none of whose folders is bundled', () => {
    const ids = ['/app/node_modules/antd/es/upload/index.js', '/app/node_modules/antd/es/button/index.js', '/app/src/main.tsx'];
    const unused = unusedPrefixes(ids);
    expect(unused).not.toContain('upload');
    expect(unused).toContain('cascader');
    expect(unused.length).toBe(Object.keys(COMPONENT_CLASSES).length - 1);
  });
});

// ESLint 9 flat config for the whole monorepo (see docs/linting.md).
// Formatting is Prettier's job: eslint-config-prettier, last, turns off the stylistic rules.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import js from '@eslint/js';
import { defineConfig, globalIgnores } from 'eslint/config';
import prettier from 'eslint-config-prettier';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import { importX } from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const root = import.meta.dirname;
const abs = (p) => path.join(root, p);
// The module and feature folders as they are on disk, so the boundary zones follow the tree.
const dirsIn = (p) => {
  try {
    return readdirSync(abs(p), { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name);
  } catch {
    return [];
  }
};

const SERVER = 'apps/server/src';
const WEB = 'apps/web/src';
const TESTS = ['**/*.test.ts', '**/*.test.tsx'];

// Server (c) and web: another module / feature is reached only through its index.ts.
// `<dir>/!(<name>)/**/*` is any file inside a sibling folder (not files lying in <dir> itself).
const onlyThroughIndex = (dir, names, what) =>
  names.map((name) => ({
    target: abs(`${dir}/!(${name})/**/*`),
    from: abs(`${dir}/${name}/**`),
    // A glob (the braces), as import-x requires when `from` is one.
    except: [abs(`${dir}/${name}/index.{ts,tsx}`)],
    message: `Import another ${what} only through its index.ts (${dir}/${name}/index.ts).`,
  }));

const boundaryZones = [
  // Server (a): production code never imports the test harness (apps/server/test/).
  {
    target: abs(`${SERVER}/**/!(*.test).ts`),
    from: abs('apps/server/test/**'),
    message: 'apps/server/src imports apps/server/test only from *.test.ts files.',
  },
  // Server (b): routes go through a service, never to a repository.
  {
    target: abs(`${SERVER}/**/*.routes.ts`),
    from: abs(`${SERVER}/**/*.repository.ts`),
    message: 'A *.routes.ts file never imports a *.repository.ts file: go through the service.',
  },
  // Server (c).
  ...onlyThroughIndex(`${SERVER}/modules`, dirsIn(`${SERVER}/modules`), 'server module'),
  // Web: components/ and lib/ are below features/ and app/; features/ is below app/.
  ...['components', 'lib'].map((dir) => ({
    target: abs(`${WEB}/${dir}/**`),
    from: [abs(`${WEB}/features/**`), abs(`${WEB}/app/**`)],
    message: `${WEB}/${dir} imports nothing from features/ or app/.`,
  })),
  {
    target: abs(`${WEB}/features/**`),
    from: abs(`${WEB}/app/**`),
    message: `${WEB}/features imports nothing from app/.`,
  },
  ...onlyThroughIndex(`${WEB}/features`, dirsIn(`${WEB}/features`), 'feature'),
];

const vitestImports = {
  paths: [{ name: 'vitest', message: 'vitest is imported only in *.test.ts files (test kits live in apps/server/test).' }],
  patterns: [{ group: ['vitest/*', '@vitest/*'], message: 'vitest is imported only in *.test.ts files.' }],
};
const sqlMessage = "drizzle-orm's sql goes only in *.repository.ts files and src/db/: move the query into a repository.";

export default defineConfig([
  globalIgnores(['**/node_modules/', '**/dist/', '**/coverage/', '.artifacts/', 'data/', 'bench/results/', `${SERVER}/db/migrations/`]),

  {
    linterOptions: { reportUnusedDisableDirectives: 'error' },
  },

  js.configs.recommended,

  // TypeScript, type-aware: each file is checked with the tsconfig.json nearest to it.
  {
    files: ['**/*.{ts,tsx,mts,cts}'],
    extends: [tseslint.configs.recommendedTypeChecked],
    languageOptions: {
      parserOptions: {
        projectService: {
          // The vitest configs belong to no workspace's tsconfig.
          allowDefaultProject: ['vitest.config.ts', 'apps/web/vitest.config.ts'],
          defaultProject: 'tsconfig.base.json',
        },
        tsconfigRootDir: root,
      },
    },
    rules: {
      // React and antd ignore what an event handler returns (onClick={async () => ...}); promises passed as arguments are still checked.
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
      // A `_` prefix marks a parameter or binding kept on purpose (positional arguments, omitted fields).
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_' }],
    },
  },

  // Plain JavaScript (scripts/*.mjs, this file): no type information.
  {
    files: ['**/*.{js,mjs,cjs}'],
    extends: [tseslint.configs.disableTypeChecked],
    languageOptions: { globals: { ...globals.node } },
  },

  // Node globals for the server, e2e, bench, contracts and config files; the browser for the web app.
  {
    files: ['apps/server/**', 'e2e/**', 'bench/**', 'packages/**', '*.ts', 'apps/web/vite.config.ts'],
    languageOptions: { globals: { ...globals.node } },
  },
  {
    files: [`${WEB}/**`],
    languageOptions: { globals: { ...globals.browser } },
  },

  // React hooks (including the React Compiler rules of v7's recommended set) for the web app.
  {
    files: [`${WEB}/**/*.{ts,tsx}`],
    extends: [reactHooks.configs.flat.recommended],
  },

  // Imports: no cycles anywhere, and the layer boundaries.
  {
    files: ['**/*.{ts,tsx,mts,cts,js,mjs}'],
    plugins: { 'import-x': importX },
    settings: {
      // Without these, import-x skips .ts/.tsx dependencies and no-cycle silently finds nothing.
      'import-x/extensions': ['.ts', '.tsx', '.cts', '.mts', '.js', '.jsx', '.cjs', '.mjs'],
      'import-x/external-module-folders': ['node_modules', 'node_modules/@types'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx', '.cts', '.mts'] },
      'import-x/resolver-next': [
        createTypeScriptImportResolver({
          project: ['packages/*/tsconfig.json', 'apps/*/tsconfig.json', 'e2e/tsconfig.json', 'bench/tsconfig.json'],
          noWarnOnMultipleProjects: true,
        }),
      ],
    },
    rules: {
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-restricted-paths': ['error', { basePath: root, zones: boundaryZones }],
    },
  },

  // Server (a) and (d): no vitest outside tests; drizzle-orm's sql only in repositories and src/db/.
  {
    files: [`${SERVER}/**/*.ts`],
    ignores: TESTS,
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            ...vitestImports.paths,
            { name: 'drizzle-orm', importNames: ['sql'], message: sqlMessage },
            { name: 'drizzle-orm/sql', importNames: ['sql'], message: sqlMessage },
          ],
          patterns: vitestImports.patterns,
        },
      ],
    },
  },
  {
    files: [`${SERVER}/**/*.repository.ts`, `${SERVER}/db/**/*.ts`],
    ignores: TESTS,
    rules: { 'no-restricted-imports': ['error', vitestImports] },
  },

  // Server: no getter or setter in an object literal. Its accessor is a closure of its own, so every
  // object built by the literal gets a hidden class of its own, kept where V8 keeps long-lived objects;
  // built per request or transaction, those kept each one's objects past every young-generation
  // collection (docs/performance-choices.md "Per-request hidden classes"). A class keeps its accessors on the prototype.
  {
    files: [`${SERVER}/**/*.{ts,mjs}`],
    ignores: TESTS,
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "ObjectExpression > Property[kind='get'], ObjectExpression > Property[kind='set']",
          message: 'No getter or setter in an object literal: use a class (docs/performance-choices.md "Per-request hidden classes").',
        },
      ],
    },
  },

  // Routes: a non-null assertion is an unchecked 500 waiting to happen; check and answer 4xx instead.
  {
    files: [`${SERVER}/**/*.routes.ts`],
    rules: { '@typescript-eslint/no-non-null-assertion': 'error' },
  },

  prettier,
]);

import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { antdCssTrim } from './src/build/antdCss.ts';
import { antdStyleFns } from './src/build/antdStyleFns.ts';
import { bundleReport } from './src/build/bundleReport.ts';
import { precompress } from './src/build/precompress.ts';

export default defineConfig(({ command }) => {
  if (command === 'build') process.env.NODE_ENV = 'production';
  return config(command);
});

const config = (command: string) => ({
  // precompress: `.br` and `.gz` of every asset for the server's preCompressed static files.
  plugins: [
    react(),
    // antd's prebuilt stylesheet without the components the app never bundles (checked at build time).
    antdCssTrim(
      [
        'affix',
        'anchor',
        'carousel',
        'cascader',
        'float-btn',
        'image',
        'masonry',
        'mentions',
        'message',
        'qrcode',
        'rate',
        'segmented',
        'slider',
        'splitter',
        'timeline',
        'tour',
        'transfer',
        'tree-select',
        'select-tree',
        'upload',
      ],
      // The auth pages' sheet (`antd.css?first`, imported by main.tsx): the components of the entry, the auth
      // layout and pages and the toasts, with the class prefixes each renders. The build fails if those chunks
      // bundle another antd component (add it here) - see src/build/antdCss.ts.
      {
        styles: {
          button: ['btn', 'wave'],
          form: ['form'],
          grid: ['row', 'col'],
          row: ['row'],
          col: ['col'],
          input: ['input'],
          typography: ['typography'],
          result: ['result'],
          spin: ['spin'],
          flex: ['flex'],
          space: ['space'],
          notification: ['notification'],
          tooltip: ['tooltip'],
          // antd's motions (zoom, fade, move, slide, collapse) and CSS-variable scopes.
          style: ['zoom', 'fade', 'move', 'slide', 'motion', 'css'],
          // No classes of their own on these pages: context, theme, helpers, locale, version.
          _util: [],
          'config-provider': [],
          theme: [],
          locale: [],
          version: [],
          app: [],
          'color-picker': [],
          table: [],
        },
        notPrefixes: ['input-number'],
        chunks: /[\\/]src[\\/](?:main\.tsx|features[\\/]auth[\\/](?:AuthLayout\.tsx|pages[\\/])|app[\\/]NotificationHost\.tsx)/,
      },
    ),
    // antd's CSS-in-JS style functions, never run in zero-runtime mode, left out (src/build/antdStyleFns.ts).
    antdStyleFns(),
    precompress(),
    // `BUNDLE_REPORT=/tmp/bundle.json npm run build`: what each chunk carries (src/build/bundleReport.ts).
    bundleReport(process.env.BUNDLE_REPORT),
  ],
  // `npm start` may run the build from a shell (or a test runner) where NODE_ENV=test:
  // a build is always the production build (no dev-only React/antd code).
  define: command === 'build' ? { 'process.env.NODE_ENV': JSON.stringify('production') } : {},
  server: { proxy: { '/v0': 'http://localhost:3000' } },
  build: {
    outDir: 'dist',
    sourcemap: false,
    chunkSizeWarningLimit: 1500,
    rolldownOptions: {
      treeshake: {
        // rc-form and async-validator declare no `sideEffects`, so a module importing any part of antd's
        // form context (Input, Button: `_util/ContextIsolator`) kept all of them (~13 KB gzip on the
        // sign-in route, which has no antd Form). They have no import-time effects that matter.
        moduleSideEffects: [{ test: /node_modules[\\/]@rc-component[\\/](?:form|async-validator)[\\/]/, sideEffects: false }],
      },
      output: {
        codeSplitting: {
          // Every route needs React, the router and the store: one chunk compresses better than the
          // six shared chunks the automatic splitting made of them (measured: sign-in route -1.2 KB gzip,
          // and fewer requests before the first paint).
          groups: [
            {
              name: 'framework',
              test: /node_modules[\\/](react|react-dom|scheduler|react-redux|react-router|redux|@reduxjs[\\/]toolkit|reselect|immer|redux-persist|redux-thunk|use-sync-external-store|@standard-schema)[\\/]/,
            },
          ],
        },
      },
    },
  },
});

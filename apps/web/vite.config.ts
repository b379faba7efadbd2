import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { antdCssTrim } from './src/build/antdCss.ts';
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
    antdCssTrim([
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
    ]),
    precompress(),
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

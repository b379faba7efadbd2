import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  plugins: [react()],
  test: {
    name: 'web',
    root: './apps/web',
    include: ['src/**/*.test.{ts,tsx}'],
    environment: 'jsdom',
    setupFiles: ['./src/test/setup.ts'],
    passWithNoTests: true,
    // antd under jsdom renders a dialog in 0.5-3 s of CPU; the default 5 s bound failed on a loaded
    // 2-core machine (WelcomeDialog) although every wait in the tests is on state, not on time.
    testTimeout: 20_000,
    sequence: { groupOrder: 1 },
  },
});

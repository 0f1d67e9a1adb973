import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The browser suite needs Chromium: npm run test:browser.
    exclude: ['test/browser/**', '**/node_modules/**'],
    setupFiles: ['test/support/quiet-logs.ts'],
    // Synthesizes the staging template once for every local API the suites start.
    globalSetup: ['test/support/stage-setup.ts'],
    // Each file starts its own store and local API; two cores run two files at a time.
    pool: 'forks',
    testTimeout: 20_000,
    hookTimeout: 60_000,
  },
});

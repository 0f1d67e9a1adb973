import { defineConfig } from 'vitest/config';
import { ENV } from './lib/config.ts';

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
    // A busy machine gives a file a fraction of a core for its store, gateway, functions and
    // clients at once: the local store's client may wait longer than production's (docs/testing.md),
    // and a test or hook as long as it needs to finish, not to race.
    env: { [ENV.timeoutScale]: '60' },
    testTimeout: 300_000,
    hookTimeout: 300_000,
  },
});

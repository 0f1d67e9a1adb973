import { defineConfig } from 'vitest/config';
import { ENV } from './lib/config.ts';

// The CDK's built-in CloudFormation validation only warns (its errors become warnings unless a
// feature flag says otherwise) and takes most of each synthesis, which the suites make a few dozen
// times: they skip it, as their child processes do. `cdk synth` keeps it; cfn-lint checks every
// template (`npm run lint:cfn`).
process.env.CDK_VALIDATION ??= 'false';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The browser suite needs Chromium (npm run test:browser); the Artillery suite, Artillery (npm run test:artillery).
    exclude: ['test/browser/**', 'test/distributed/**', '**/node_modules/**'],
    setupFiles: ['test/support/quiet-logs.ts'],
    // Synthesizes the staging template once for every local API the suites start.
    globalSetup: ['test/support/stage-setup.ts'],
    // Each file starts its own store and local API; two cores run two files at a time.
    pool: 'forks',
    // A busy machine gives a file a fraction of a core for its store, gateway, functions and
    // clients at once: local mode waits longer than production would (docs/testing.md), and a test
    // or hook as long as it needs to finish, not to race.
    env: { [ENV.timeoutScale]: '60' },
    testTimeout: 300_000,
    hookTimeout: 300_000,
    expect: { poll: { timeout: 60_000 } },
  },
});

/**
 * The store and API suites again, against AWS's own DynamoDB Local instead of dynalite, so that
 * nothing passes only because dynalite is lenient. Needs Java 17.
 */
import { defineConfig } from 'vitest/config';
import base from './vitest.config.ts';

// Not mergeConfig: it would append to the base `include` instead of replacing it.
export default defineConfig({
  test: {
    ...base.test,
    include: ['test/store/**/*.test.ts', 'test/api/**/*.test.ts', 'test/reliability/**/*.test.ts'],
    globalSetup: ['test/support/stage-setup.ts', 'test/support/conformance-setup.ts'],
  },
});
